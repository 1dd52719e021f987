import { describe, expect, it } from "vitest";
import type { AnswerItem, ToolCall } from "../../protocol/schemas";
import { askedQuestions, rejectedCall, reviewedPlan, summariseTool } from "./tool-summary";

const askArgs = {
  questions: [
    { id: "pkg", question: "Which package manager?", header: "Tooling", options: [{ label: "pnpm (Recommended)" }, { label: "npm" }] },
    { id: "name", question: "Project name?" },
    { id: "extras", question: "Extras?", options: [{ label: "ESLint" }, { label: "Prettier" }], multi_select: true },
  ],
};

function ask(overrides: Partial<ToolCall>): ToolCall {
  return { callId: "call-1", name: "ask_user_question", args: askArgs, status: "running", ...overrides };
}

/** A finished ask row as the host writes it: the model's text and the same answers as outcome data. */
function answered(answers: AnswerItem[]): Partial<ToolCall> {
  return { status: "ok", result: JSON.stringify({ answers }), outcome: { kind: "answered", answers } };
}

describe("summariseTool for ask_user_question", () => {
  it("reads waiting while the question is pending", () => {
    expect(summariseTool(ask({}))).toEqual({ state: "waiting" });
  });

  it("counts answered questions and leaves skips out of the count", () => {
    const answers = [
      { id: "pkg", selected: ["pnpm (Recommended)"] },
      { id: "name", selected: [] },
      { id: "extras", selected: ["ESLint"], custom: "Vitest" },
    ];
    expect(summariseTool(ask(answered(answers)))).toEqual({ state: "answered", answered: 2, total: 3 });
  });

  it("counts a custom-only answer as answered", () => {
    expect(summariseTool(ask(answered([{ id: "pkg", selected: [] }, { id: "name", selected: [], custom: "demo" }, { id: "extras", selected: [] }])))).toEqual({ state: "answered", answered: 1, total: 3 });
  });

  it("reads cancelled for ASK_CANCELLED", () => {
    const error = { name: "UserInteractionError", code: "ASK_CANCELLED", message: "the user cancelled ask_user_question" };
    expect(summariseTool(ask({ status: "error", error }))).toEqual({ state: "cancelled" });
  });

  it("reads interrupted for ASK_ABORTED and for a stopped call", () => {
    const error = { name: "UserInteractionError", code: "ASK_ABORTED", message: "aborted" };
    expect(summariseTool(ask({ status: "error", error }))).toEqual({ state: "interrupted" });
    expect(summariseTool(ask({ status: "stopped" }))).toEqual({ state: "interrupted" });
  });

  it("reads failed with the code for any other tool error", () => {
    const error = { name: "ToolError", code: "INVALID_ARGS", message: "questions: required" };
    expect(summariseTool(ask({ status: "error", error }))).toEqual({ state: "failed", code: "INVALID_ARGS" });
  });

  it("tool-outcome: reads done for a finished row without outcome data, and never reads the model-facing text", () => {
    expect(summariseTool(ask({ status: "ok", result: "not json" }))).toEqual({ state: "done" });
    expect(summariseTool(ask({ status: "ok", result: JSON.stringify({ answers: [{ id: "pkg", selected: ["npm"] }] }) }))).toEqual({ state: "done" });
  });
});

describe("summariseTool for present_plan and other tools", () => {
  const plan = (overrides: Partial<ToolCall>): ToolCall => ({ callId: "c", name: "present_plan", args: { plan: "1. Build" }, status: "running", ...overrides });

  it("reads waiting, approved, changes requested and interrupted for a plan review", () => {
    expect(summariseTool(plan({}))).toEqual({ state: "waiting" });
    expect(summariseTool(plan({ status: "ok", result: "approved", outcome: { kind: "approved" } }))).toEqual({ state: "approved" });
    expect(summariseTool(plan({ status: "ok", result: "Use SQLite", outcome: { kind: "revise", feedback: "Use SQLite" } }))).toEqual({ state: "feedback" });
    expect(summariseTool(plan({ status: "stopped" }))).toEqual({ state: "interrupted" });
  });

  it("reads running and done for a tool that does not ask the human", () => {
    const other: ToolCall = { callId: "c", name: "search", args: {}, status: "running" };
    expect(summariseTool(other)).toEqual({ state: "running" });
    expect(summariseTool({ ...other, status: "ok", result: "3 hits" })).toEqual({ state: "done" });
  });
});

describe("askedQuestions", () => {
  it("pairs each question with its answer, skip or custom text", () => {
    const answers = [
      { id: "pkg", selected: ["npm"] },
      { id: "name", selected: [] },
      { id: "extras", selected: ["ESLint", "Prettier"], custom: "Vitest" },
    ];
    expect(askedQuestions(ask(answered(answers)))).toEqual([
      { id: "pkg", header: "Tooling", question: "Which package manager?", answer: { kind: "answered", selected: ["npm"] } },
      { id: "name", question: "Project name?", answer: { kind: "skipped" } },
      { id: "extras", question: "Extras?", answer: { kind: "answered", selected: ["ESLint", "Prettier"], custom: "Vitest" } },
    ]);
  });

  it("shows no answers for a cancelled call", () => {
    const error = { name: "UserInteractionError", code: "ASK_CANCELLED", message: "cancelled" };
    expect(askedQuestions(ask({ status: "error", error })).map((item) => item.answer)).toEqual([{ kind: "none" }, { kind: "none" }, { kind: "none" }]);
  });

  it("gives nothing for arguments that are not a question batch", () => {
    expect(askedQuestions(ask({ args: { questions: "oops" } }))).toEqual([]);
  });
});

describe("reviewedPlan", () => {
  it("returns the plan and the feedback when the plan was not approved", () => {
    const tool: ToolCall = { callId: "c", name: "present_plan", args: { plan: "1. Build" }, status: "ok", result: "Use SQLite", outcome: { kind: "revise", feedback: "Use SQLite" } };
    expect(reviewedPlan(tool)).toEqual({ plan: "1. Build", feedback: "Use SQLite", note: null });
    expect(reviewedPlan({ ...tool, result: "approved", outcome: { kind: "approved" } })).toEqual({ plan: "1. Build", feedback: null, note: null });
  });

  it("returns the note sent with an approval", () => {
    const tool: ToolCall = {
      callId: "c",
      name: "present_plan",
      args: { plan: "1. Build" },
      status: "ok",
      result: "approved. Note from the human: ship Monday",
      outcome: { kind: "approved", note: "ship Monday" },
    };
    expect(reviewedPlan(tool)).toEqual({ plan: "1. Build", feedback: null, note: "ship Monday" });
  });
});

describe("rejectedCall", () => {
  it("gives the error the model received for a call refused before anything was asked", () => {
    const error = { name: "ToolError", code: "INVALID_ARGS", message: "invalid arguments: questions: Invalid input: expected array, received undefined" };
    expect(rejectedCall({ callId: "c", name: "ask_user_question", args: {}, status: "error", error })).toEqual(error);
  });

  it("gives nothing for a cancelled, interrupted or answered call", () => {
    const base: ToolCall = { callId: "c", name: "ask_user_question", args: {}, status: "error" };
    expect(rejectedCall({ ...base, error: { name: "UserInteractionError", code: "ASK_CANCELLED", message: "the user cancelled ask_user_question" } })).toBeNull();
    expect(rejectedCall({ ...base, error: { name: "UserInteractionError", code: "ASK_ABORTED", message: "aborted" } })).toBeNull();
    expect(rejectedCall({ ...base, status: "stopped" })).toBeNull();
    expect(rejectedCall({ ...base, status: "ok", result: '{"answers":[]}' })).toBeNull();
  });
});

describe("summariseTool for an MCP server's tool", () => {
  const base: ToolCall = { callId: "m1", name: "mcp__files__write_file", args: {}, status: "running", mcp: { server: "files", tool: "write_file" } };

  it("reads waiting for approval while asking, running once allowed, denied for TOOL_DENIED, failed for a server error, done with a result", () => {
    expect(summariseTool({ ...base, mcp: { server: "files", tool: "write_file", approval: "asking" } })).toEqual({ state: "awaiting-approval" });
    expect(summariseTool({ ...base, mcp: { server: "files", tool: "write_file", approval: "allowed-once" } })).toEqual({ state: "running" });
    expect(summariseTool({ ...base, status: "error", error: { name: "ToolError", code: "TOOL_DENIED", message: "denied" } })).toEqual({ state: "denied" });
    expect(summariseTool({ ...base, status: "error", error: { name: "McpError", code: "MCP_SERVER_UNAVAILABLE", message: "gone" } })).toEqual({ state: "failed", code: "MCP_SERVER_UNAVAILABLE" });
    expect(summariseTool({ ...base, status: "ok", outcome: { kind: "mcp-result", content: [{ type: "text", text: "ok" }] } })).toEqual({ state: "done" });
    expect(summariseTool({ ...base, status: "stopped" })).toEqual({ state: "interrupted" });
  });
});
