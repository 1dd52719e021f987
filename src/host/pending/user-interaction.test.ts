import { describe, expect, it } from "vitest";
import type { QuestionItem } from "../../protocol/schemas";
import { planReviewQuestions } from "../../protocol/plan-review";
import { approvalAnswer, approvalQuestions } from "../../protocol/approval";
import type { DownFrame } from "../../protocol/schemas";
import { createPendingTable } from "./pending-table";
import { askApproval, createUserInteraction, UserInteractionError, type AskRequest, type UserInteractionProvider } from "./user-interaction";

function recordingProvider() {
  const calls: AskRequest[] = [];
  const provider: UserInteractionProvider = {
    async ask(request) {
      calls.push(request);
      return { answers: request.questions.map((question) => ({ id: question.id, selected: [] })) };
    },
  };
  return { provider, calls };
}

async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UserInteractionError) return { name: error.name, code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a rejection");
}

const pkg: QuestionItem = { id: "pkg", question: "Which package manager?", options: [{ label: "pnpm" }, { label: "npm" }] };

describe("userInteraction.ask", () => {
  it("passes the request to the registered provider and returns its answers", async () => {
    const { provider, calls } = recordingProvider();
    const seam = createUserInteraction(provider);
    const result = await seam.ask({ questions: [pkg], sessionId: "s1" });
    expect(result).toEqual({ answers: [{ id: "pkg", selected: [] }] });
    expect(calls.map((call) => ({ questions: call.questions, sessionId: call.sessionId }))).toEqual([{ questions: [pkg], sessionId: "s1" }]);
  });

  it("rejects an already aborted signal with ASK_ABORTED, even before an empty batch, without calling the provider", async () => {
    const { provider, calls } = recordingProvider();
    const seam = createUserInteraction(provider);
    const controller = new AbortController();
    controller.abort();
    expect(await rejection(seam.ask({ questions: [], signal: controller.signal }))).toEqual({
      name: "UserInteractionError",
      code: "ASK_ABORTED",
      message: "ask_user_question was aborted before the user answered",
    });
    expect(calls).toEqual([]);
  });

  it("rejects an empty batch with EMPTY_QUESTIONS before checking limits or the provider", async () => {
    const seam = createUserInteraction(recordingProvider().provider);
    expect(await rejection(seam.ask({ questions: [] }))).toEqual({
      name: "UserInteractionError",
      code: "EMPTY_QUESTIONS",
      message: "ask_user_question requires at least one question",
    });
  });

  it("rejects a batch that breaks a limit with INVALID_QUESTIONS naming the violation, before BAD_INTENT", async () => {
    const seam = createUserInteraction(recordingProvider().provider);
    const duplicateIds = [pkg, { ...pkg, intent: { kind: "plan-review" as const, approve: "nope" } }];
    expect(await rejection(seam.ask({ questions: duplicateIds }))).toEqual({
      name: "UserInteractionError",
      code: "INVALID_QUESTIONS",
      message: 'invalid questions: 1.id: question id "pkg" appears twice',
    });
    const duplicateLabels = [{ id: "a", question: "A?", options: [{ label: "x" }, { label: "x" }] }];
    expect(await rejection(seam.ask({ questions: duplicateLabels }))).toEqual({
      name: "UserInteractionError",
      code: "INVALID_QUESTIONS",
      message: 'invalid questions: 0.options.1.label: option label "x" appears twice in question "a"',
    });
    const tooLong = [{ id: "a", question: "q".repeat(4001) }];
    expect((await rejection(seam.ask({ questions: tooLong }))).code).toBe("INVALID_QUESTIONS");
    const tooMany = Array.from({ length: 21 }, (_, index) => ({ id: `q${index}`, question: "?" }));
    expect((await rejection(seam.ask({ questions: tooMany }))).code).toBe("INVALID_QUESTIONS");
  });

  it.each<{ name: string; questions: QuestionItem[]; code: string; message: string }>([
    {
      name: "rejects an intent whose approve names none of its question's options with BAD_INTENT",
      questions: [{ ...pkg, detail: "plan", intent: { kind: "plan-review", approve: "Approve" } }],
      code: "BAD_INTENT",
      message: 'intent of question "pkg" approves "Approve", which is not one of its options',
    },
    {
      name: "rejects an intent on a question without detail with BAD_INTENT",
      questions: [{ ...pkg, intent: { kind: "plan-review", approve: "pnpm" } }],
      code: "BAD_INTENT",
      message: 'question "pkg" has a plan-review intent but no detail',
    },
  ])("$name", async ({ questions, code, message }) => {
    expect(await rejection(createUserInteraction(recordingProvider().provider).ask({ questions }))).toEqual({ name: "UserInteractionError", code, message });
  });

  it("never calls the provider when a check fails", async () => {
    const { provider, calls } = recordingProvider();
    const seam = createUserInteraction(provider);
    await rejection(seam.ask({ questions: [] }));
    await rejection(seam.ask({ questions: [pkg, pkg] }));
    await rejection(seam.ask({ questions: [{ ...pkg, intent: { kind: "plan-review", approve: "pnpm" } }] }));
    expect(calls).toEqual([]);
  });

  it("passes an intent through to the provider unchanged", async () => {
    const { provider, calls } = recordingProvider();
    const seam = createUserInteraction(provider);
    const questions = planReviewQuestions("1. do it");
    await seam.ask({ questions, sessionId: "s" });
    expect(calls[0]?.questions).toEqual(planReviewQuestions("1. do it"));
  });
});

describe("askApproval", () => {
  function setup() {
    const frames: DownFrame[] = [];
    const table = createPendingTable({ broadcast: (frame) => frames.push(frame), log: () => undefined });
    const seam = createUserInteraction(table);
    return { frames, table, seam };
  }
  const call = { sessionId: "s1", server: "files", tool: "write_file", arguments: '{"path":"a.txt","text":"hi"}' };

  it("sends one pending request with the approval questions, the server as origin and the full arguments", () => {
    const { frames, table, seam } = setup();
    void askApproval(seam, call);
    const pending = table.replay()[0]!;
    expect(frames.filter((frame) => frame.type === "question/requested")).toEqual([
      {
        type: "question/requested",
        rpcId: pending.rpcId,
        sessionId: "s1",
        questions: approvalQuestions({ server: "files", tool: "write_file", arguments: call.arguments }),
        createdAt: pending.createdAt,
        origin: { kind: "mcp-server", name: "files" },
        approval: { server: "files", tool: "write_file", arguments: '{"path":"a.txt","text":"hi"}' },
      },
    ]);
  });

  it("returns each decision the human answered, with the reason of a Deny", async () => {
    const { table, seam } = setup();
    const decisions = [{ kind: "allow-once" }, { kind: "allow-for-chat" }, { kind: "deny", reason: "not that file" }, { kind: "deny" }] as const;
    const results = [];
    for (const decision of decisions) {
      const asked = askApproval(seam, call);
      const rpcId = table.replay()[0]!.rpcId;
      expect(await table.respond({ type: "answer", rpcId, sessionId: "s1", answers: approvalAnswer(decision) })).toEqual({ accepted: true });
      results.push(await asked);
    }
    expect(results).toEqual([{ kind: "allow-once" }, { kind: "allow-for-chat" }, { kind: "deny", reason: "not that file" }, { kind: "deny" }]);
  });

  it("refuses an answer that types its own words instead of a decision, and keeps the request pending", async () => {
    const { table, seam } = setup();
    void askApproval(seam, call);
    const rpcId = table.replay()[0]!.rpcId;
    const receipt = await table.respond({ type: "answer", rpcId, sessionId: "s1", answers: [{ id: "approval", selected: [], custom: "sure" }, { id: "approval-reason", selected: [] }] });
    expect(receipt).toMatchObject({ accepted: false, reason: "bad-response" });
    expect(table.replay().map((frame) => frame.rpcId)).toEqual([rpcId]);
  });

  it("rejects with ASK_ABORTED when the turn stops, and ASK_CANCELLED when the human dismisses", async () => {
    const { table, seam } = setup();
    const controller = new AbortController();
    const aborted = rejection(askApproval(seam, { ...call, signal: controller.signal }));
    controller.abort();
    expect(await aborted).toEqual({ name: "UserInteractionError", code: "ASK_ABORTED", message: "ask_user_question was aborted before the user answered" });
    const cancelled = rejection(askApproval(seam, call));
    await table.respond({ type: "cancel", rpcId: table.replay()[0]!.rpcId, sessionId: "s1" });
    expect(await cancelled).toEqual({ name: "UserInteractionError", code: "ASK_CANCELLED", message: "the user cancelled ask_user_question" });
  });
});
