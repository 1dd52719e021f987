import { describe, expect, it } from "vitest";
import { createUserInteraction, UserInteractionError, type AskRequest } from "../pending/user-interaction";
import { AskUserQuestionArgs } from "./ask-user-question";
import { createBuiltInTools } from "./built-in";
import { toolErrorCode, type ToolContext } from "./registry";

function propertyNames(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) {
    for (const item of schema) propertyNames(item, found);
  } else if (schema && typeof schema === "object") {
    for (const [key, value] of Object.entries(schema)) {
      if (key === "properties" && value && typeof value === "object") for (const name of Object.keys(value)) found.add(name);
      propertyNames(value, found);
    }
  }
  return found;
}

function setup(answer: (request: AskRequest) => Promise<{ answers: { id: string; selected: string[]; custom?: string }[] }>) {
  const requests: AskRequest[] = [];
  const seam = createUserInteraction({
    ask(request) {
      requests.push(request);
      return answer(request);
    },
  });
  const tools = createBuiltInTools(seam);
  const context: ToolContext = { signal: new AbortController().signal, sessionId: "s1" };
  return { tools, requests, context };
}

describe("ask_user_question schema", () => {
  it("is generated from the argument definition and offers only the model's vocabulary", () => {
    const { tools } = setup(async () => ({ answers: [] }));
    const spec = tools.list().find((tool) => tool.name === "ask_user_question");
    expect(spec).toBeDefined();
    const names = propertyNames(spec!.parameters);
    expect([...names].sort()).toEqual(["description", "header", "id", "label", "multi_select", "options", "question", "questions"]);
    for (const banned of ["value", "recommended", "allow_custom", "desc", "detail", "intent", "multiSelect"]) expect(names.has(banned)).toBe(false);
    expect(spec!.parameters).toMatchObject({ type: "object", required: ["questions"], additionalProperties: false });
  });

  it("tells the model to be concise, prefer options, use stable ids and mark a recommendation with ' (Recommended)' first", () => {
    const { tools } = setup(async () => ({ answers: [] }));
    const description = tools.list().find((tool) => tool.name === "ask_user_question")!.description;
    expect(description).toContain("concisely");
    expect(description).toContain("prefer options");
    expect(description).toContain("stable id");
    expect(description).toContain("put it first and append ' (Recommended)'");
  });

  it("validates with the same definition the schema came from", () => {
    expect(AskUserQuestionArgs.safeParse({ questions: [{ id: "a", question: "A?", recommended: true }] }).success).toBe(false);
    expect(AskUserQuestionArgs.safeParse({ questions: [{ id: "a", question: "A?", multi_select: true }] }).success).toBe(true);
  });
});

describe("ask_user_question execution", () => {
  it("maps multi_select to multiSelect and returns the compact answer text with keys id, selected, custom", async () => {
    const { tools, requests, context } = setup(async () => ({
      answers: [
        { custom: "also yarn", selected: ["pnpm", "npm"], id: "pkg" },
        { selected: [], id: "name" },
      ],
    }));
    const outcome = await tools.execute(
      "ask_user_question",
      {
        questions: [
          { id: "pkg", question: "Which?", header: "Tools", options: [{ label: "pnpm", description: "fast" }, { label: "npm" }], multi_select: true },
          { id: "name", question: "Name?" },
        ],
      },
      context,
    );
    expect(requests.map((request) => ({ questions: request.questions, sessionId: request.sessionId }))).toEqual([
      {
        questions: [
          { id: "pkg", question: "Which?", header: "Tools", options: [{ label: "pnpm", description: "fast" }, { label: "npm" }], multiSelect: true },
          { id: "name", question: "Name?" },
        ],
        sessionId: "s1",
      },
    ]);
    expect(outcome.isError).toBe(false);
    expect(outcome.text).toBe('{"answers":[{"id":"pkg","selected":["pnpm","npm"],"custom":"also yarn"},{"id":"name","selected":[]}]}');
  });

  it("tool-outcome: returns the documented text for a single label, and the answers as the row's outcome", async () => {
    const { tools, context } = setup(async () => ({ answers: [{ id: "pkg", selected: ["pnpm"] }] }));
    const outcome = await tools.execute("ask_user_question", { questions: [{ id: "pkg", question: "Which?", options: [{ label: "pnpm" }] }] }, context);
    expect(outcome).toEqual({
      isError: false,
      text: '{"answers":[{"id":"pkg","selected":["pnpm"]}]}',
      value: { answers: [{ id: "pkg", selected: ["pnpm"] }] },
      outcome: { kind: "answered", answers: [{ id: "pkg", selected: ["pnpm"] }] },
    });
  });

  it("rejects bad arguments with INVALID_ARGS naming the path of each violation, without asking", async () => {
    const { tools, requests, context } = setup(async () => ({ answers: [] }));
    const outcome = await tools.execute("ask_user_question", { questions: [{ id: "", question: "A?" }, { id: "b", question: "B?", value: 1 }] }, context);
    expect(outcome.isError).toBe(true);
    expect(outcome.error?.code).toBe("INVALID_ARGS");
    expect(outcome.error?.name).toBe("ToolError");
    expect(outcome.error?.message).toContain("questions.0.id:");
    expect(outcome.error?.message).toContain("questions.1:");
    expect(outcome.error?.message).toContain('"value"');
    expect(outcome.text).toBe(`Error: ${outcome.error?.message}\n{"name":"ToolError","code":"INVALID_ARGS"}`);
    expect(requests).toEqual([]);
    const missing = await tools.execute("ask_user_question", {}, context);
    expect(missing.error?.message).toMatch(/^invalid arguments: questions: /);
    const empty = await tools.execute("ask_user_question", { questions: [] }, context);
    expect(empty.error?.code).toBe("INVALID_ARGS");
  });

  it("carries a seam error through execute as a structured tool error", async () => {
    const { tools, context } = setup(async () => {
      throw new UserInteractionError("ASK_CANCELLED", "the user cancelled ask_user_question");
    });
    const outcome = await tools.execute("ask_user_question", { questions: [{ id: "a", question: "A?" }] }, context);
    expect(outcome).toEqual({
      isError: true,
      text: 'Error: the user cancelled ask_user_question\n{"name":"UserInteractionError","code":"ASK_CANCELLED"}',
      error: { name: "UserInteractionError", code: "ASK_CANCELLED", message: "the user cancelled ask_user_question" },
    });
    expect(toolErrorCode(outcome.text)).toBe("ASK_CANCELLED");
  });

  it("reports INVALID_QUESTIONS from the seam for duplicate ids the schema cannot express", async () => {
    const { tools, context } = setup(async () => ({ answers: [] }));
    const outcome = await tools.execute("ask_user_question", { questions: [{ id: "a", question: "A?" }, { id: "a", question: "B?" }] }, context);
    expect(outcome.error).toEqual({ name: "UserInteractionError", code: "INVALID_QUESTIONS", message: 'invalid questions: 1.id: question id "a" appears twice' });
  });

  it("reports ASK_ABORTED when the turn's signal is already aborted", async () => {
    const { tools } = setup(async () => ({ answers: [] }));
    const controller = new AbortController();
    controller.abort();
    const outcome = await tools.execute("ask_user_question", { questions: [{ id: "a", question: "A?" }] }, { signal: controller.signal, sessionId: "s" });
    expect(outcome.error?.code).toBe("ASK_ABORTED");
  });

  it("reports an unknown tool as UNKNOWN_TOOL", async () => {
    const { tools, context } = setup(async () => ({ answers: [] }));
    const outcome = await tools.execute("rm_rf", {}, context);
    expect(outcome.error).toEqual({ name: "ToolError", code: "UNKNOWN_TOOL", message: 'no tool is named "rm_rf"' });
  });
});
