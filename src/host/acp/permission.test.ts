import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { checkAnswers } from "../../protocol/answers";
import { choiceAnswer } from "../../protocol/approval";
import { QuestionRequestedFrame } from "../../protocol/schemas";
import { abortedResponse, APPROVAL_TEXT_CHARS, dismissedResponse, optionForKind, permissionQuestion, permissionResponse, qwenQuestionsOf, responseForKind } from "./permission";
import { TEST_PERMISSION_OPTIONS, TEST_QWEN_QUESTIONS } from "../../testing/acp/test-agent-data";

const agent = { name: "qwen", title: "Qwen Code" };

const edit: RequestPermissionRequest = {
  sessionId: "s1",
  toolCall: {
    toolCallId: "call-1",
    title: "Edit src/app.ts",
    kind: "edit",
    locations: [{ path: "/w/src/app.ts", line: 2 }],
    content: [{ type: "diff", path: "/w/src/app.ts", oldText: "const b = 2;\n", newText: "const b = 3;\n" }],
    rawInput: { file_path: "/w/src/app.ts" },
  },
  options: [...TEST_PERMISSION_OPTIONS],
};

const qwen: RequestPermissionRequest = {
  sessionId: "s1",
  toolCall: { toolCallId: "ask-1", title: "Ask the user", kind: "other" },
  options: [
    { optionId: "cancel", name: "Cancel", kind: "reject_once" },
    { optionId: "proceed_once", name: "Submit", kind: "allow_once" },
  ],
  _meta: { qwenInteractionKind: "user_question", qwenQuestions: TEST_QWEN_QUESTIONS },
};

describe("ACP permission → approval request", () => {
  it("shows the agent's options by name, ordered allow-once, allow-always, reject-once, reject-always, with the tool call as data", () => {
    const asked = permissionQuestion(agent, edit);
    expect(asked.origin).toEqual({ kind: "acp-agent", name: "qwen", title: "Qwen Code" });
    expect(asked.approval).toEqual({
      server: "Qwen Code",
      tool: "Edit src/app.ts",
      arguments: JSON.stringify({ file_path: "/w/src/app.ts" }, null, 2),
      choices: ["Allow", "Always allow", "Reject", "Never allow"],
      choiceKinds: ["allow_once", "allow_always", "reject_once", "reject_always"],
      toolCall: {
        toolCallId: "call-1",
        title: "Edit src/app.ts",
        kind: "edit",
        locations: [{ path: "/w/src/app.ts", line: 2 }],
        content: [{ type: "diff", path: "/w/src/app.ts", oldText: "const b = 2;\n", newText: "const b = 3;\n" }],
      },
    });
    expect(asked.questions[0]?.options?.map((option) => option.label)).toEqual(["Allow", "Always allow", "Reject", "Never allow"]);
    const frame = { type: "question/requested", rpcId: "r", sessionId: "s1", createdAt: "2026-01-01T00:00:00Z", questions: asked.questions, origin: asked.origin, approval: asked.approval };
    expect(QuestionRequestedFrame.safeParse(frame).success).toBe(true);
  });

  it("shows a call the turn already knows whole when the request names it with its id and what changed (Codex's edits)", () => {
    const known = { call: permissionQuestion(agent, edit).approval!.toolCall!, rawInput: { file_path: "/w/src/app.ts" } };
    const partial: RequestPermissionRequest = { sessionId: "s1", toolCall: { toolCallId: "call-1", kind: "edit", status: "pending" }, options: [...TEST_PERMISSION_OPTIONS] };
    expect(permissionQuestion(agent, partial, known).approval).toEqual(permissionQuestion(agent, edit).approval);
    // What the request does carry wins over what was known; without anything known, the card shows what it got.
    const retitled = permissionQuestion(agent, { ...partial, toolCall: { ...partial.toolCall, title: "Edit src/app.ts again", rawInput: { file_path: "/w/b.ts" } } }, known).approval;
    expect([retitled?.tool, retitled?.arguments, retitled?.toolCall?.content]).toEqual(["Edit src/app.ts again", JSON.stringify({ file_path: "/w/b.ts" }, null, 2), edit.toolCall.content]);
    expect(permissionQuestion(agent, partial).approval?.toolCall).toEqual({ toolCallId: "call-1", title: "a tool call", kind: "edit" });
  });

  it("maps the chosen label back to its option id, a reject carrying the reason in _meta", () => {
    const asked = permissionQuestion(agent, edit);
    for (const [label, optionId, kind] of [
      ["Allow", "proceed_once", "allow_once"],
      ["Always allow", "proceed_always", "allow_always"],
      ["Never allow", "never", "reject_always"],
    ] as const) {
      const answers = choiceAnswer(label);
      expect(checkAnswers(asked.questions, answers)).toBeNull();
      expect(permissionResponse(edit, answers)).toEqual({ response: { outcome: { outcome: "selected", optionId } }, kind });
    }
    expect(permissionResponse(edit, choiceAnswer("Reject", " wrong file "))).toEqual({
      response: { outcome: { outcome: "selected", optionId: "cancel" }, _meta: { parley: { reason: "wrong file" } } },
      kind: "reject_once",
      reason: "wrong file",
    });
    expect(permissionResponse(edit, choiceAnswer("Allow", "ignored"))).toEqual({ response: { outcome: { outcome: "selected", optionId: "proceed_once" } }, kind: "allow_once" });
  });

  it("chooses by kind, never by id, with allow-always falling back to allow-once and never an allow to a reject", () => {
    const onlyOnce = [
      { optionId: "x", name: "Yes", kind: "allow_once" },
      { optionId: "y", name: "No", kind: "reject_always" },
    ] as const;
    expect(optionForKind([...onlyOnce], "allow_always")?.optionId).toBe("x");
    expect(optionForKind([...onlyOnce], "reject_once")?.optionId).toBe("y");
    expect(responseForKind({ options: [{ optionId: "n", name: "No", kind: "reject_once" }] }, "allow_once")).toEqual(abortedResponse());
    expect(dismissedResponse(edit)).toEqual({ response: { outcome: { outcome: "selected", optionId: "cancel" } }, kind: "reject_once" });
    expect(abortedResponse()).toEqual({ response: { outcome: { outcome: "cancelled" } }, kind: null });
  });

  it("names duplicate options apart and bounds a 10 MB diff", () => {
    const big: RequestPermissionRequest = {
      ...edit,
      toolCall: { ...edit.toolCall, content: [{ type: "diff", path: "/w/big", newText: "x".repeat(10 * 1024 * 1024) }] },
      options: [
        { optionId: "a", name: "Allow", kind: "allow_once" },
        { optionId: "b", name: "Allow", kind: "allow_always" },
      ],
    };
    const asked = permissionQuestion(agent, big);
    expect(asked.approval?.choices).toEqual(["Allow", "Allow (2)"]);
    const diff = asked.approval?.toolCall?.content?.[0];
    expect(diff?.type === "diff" && diff.newText.length).toBe(APPROVAL_TEXT_CHARS);
    expect(diff).toMatchObject({ truncated: true });
    expect(permissionResponse(big, choiceAnswer("Allow (2)")).response.outcome).toEqual({ outcome: "selected", optionId: "b" });
  });

  it("cuts a 10 MB raw input (a file being written) and says so on its last line", () => {
    const content = "x".repeat(10 * 1024 * 1024);
    const asked = permissionQuestion(agent, { ...edit, toolCall: { ...edit.toolCall, rawInput: { file_path: "/w/big", content } } });
    const whole = JSON.stringify({ file_path: "/w/big", content }, null, 2);
    expect(asked.approval?.arguments).toBe(`${whole.slice(0, APPROVAL_TEXT_CHARS)}\n… cut here: the raw input is ${whole.length.toLocaleString("en-US")} characters long`);
    const small = permissionQuestion(agent, { ...edit, toolCall: { ...edit.toolCall, rawInput: { file_path: "/w/a" } } });
    expect(small.approval?.arguments).toBe(JSON.stringify({ file_path: "/w/a" }, null, 2));
  });
});

describe("Qwen Code user_question → a question batch", () => {
  it("is a plain batch, never an approval, one question per Qwen question with ids by index", () => {
    const asked = permissionQuestion(agent, qwen);
    expect(asked.approval).toBeUndefined();
    expect(asked.questions).toEqual([
      {
        id: "0",
        question: "Which database should the app use?",
        header: "Database",
        options: [
          { label: "SQLite", description: "One file, no server" },
          { label: "Postgres", description: "A server, several hosts" },
        ],
      },
      {
        id: "1",
        question: "Which checks should run?",
        header: "Checks",
        options: [
          { label: "Lint", description: "ESLint" },
          { label: "Types", description: "tsc" },
          { label: "Tests", description: "Vitest" },
        ],
        multiSelect: true,
      },
    ]);
  });

  it("answers proceed_once (by kind) with answers keyed by index, labels joined with \", \", free text as an answer, skips left out", () => {
    const answers = [
      { id: "0", selected: [], custom: "DuckDB" },
      { id: "1", selected: ["Lint", "Tests"] },
    ];
    expect(checkAnswers(permissionQuestion(agent, qwen).questions, answers)).toBeNull();
    expect(permissionResponse(qwen, answers)).toEqual({
      response: { outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": "DuckDB", "1": "Lint, Tests" } },
      kind: "allow_once",
    });
    expect(permissionResponse(qwen, [{ id: "0", selected: ["SQLite"] }, { id: "1", selected: [] }]).response).toEqual({
      outcome: { outcome: "selected", optionId: "proceed_once" },
      answers: { "0": "SQLite" },
    });
    expect(dismissedResponse(qwen).response).toEqual({ outcome: { outcome: "selected", optionId: "cancel" } });
  });

  it("treats a malformed user_question as an approval", () => {
    expect(qwenQuestionsOf({ _meta: { qwenInteractionKind: "user_question", qwenQuestions: [{ question: 3 }] } })).toBeNull();
    expect(qwenQuestionsOf({ _meta: { qwenInteractionKind: "user_question", qwenQuestions: [] } })).toBeNull();
    expect(permissionQuestion(agent, { ...qwen, _meta: { qwenInteractionKind: "user_question" } }).approval).toBeDefined();
  });

  it("reads a Qwen Code 0.24 user_question from the tool call's _meta, where Qwen puts it, and answers it with top-level answers", () => {
    const onToolCall: RequestPermissionRequest = {
      sessionId: "s1",
      toolCall: { toolCallId: "call-1", title: "Ask user 1 question", kind: "think", _meta: { toolName: "ask_user_question", qwenInteractionKind: "user_question", qwenQuestions: [TEST_QWEN_QUESTIONS[0]!] } },
      options: [
        { optionId: "proceed_once", name: "Submit", kind: "allow_once" },
        { optionId: "cancel", name: "Cancel", kind: "reject_once" },
      ],
    };
    const asked = permissionQuestion(agent, onToolCall);
    expect(asked.approval).toBeUndefined();
    expect(asked.questions.map((question) => question.id)).toEqual(["0"]);
    const label = asked.questions[0]!.options![0]!.label;
    expect(permissionResponse(onToolCall, [{ id: "0", selected: [label] }]).response).toEqual({ outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": label } });
  });
});
