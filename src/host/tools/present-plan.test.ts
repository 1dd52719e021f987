import { describe, expect, it } from "vitest";
import type { AnswerItem } from "../../protocol/schemas";
import { createUserInteraction, type AskRequest } from "../pending/user-interaction";
import { createPresentPlanTool } from "./present-plan";
import { createToolRegistry, type ToolContext } from "./registry";

function setup(answers: AnswerItem[]) {
  const requests: AskRequest[] = [];
  const seam = createUserInteraction({
    async ask(request) {
      requests.push(request);
      return { answers };
    },
  });
  const tools = createToolRegistry();
  tools.register(createPresentPlanTool(seam));
  const context: ToolContext = { signal: new AbortController().signal, sessionId: "s1" };
  return { run: (plan: string) => tools.execute("present_plan", { plan }, context), requests };
}

const skippedNote: AnswerItem = { id: "plan-note", selected: [] };

describe("present_plan", () => {
  it("asks one request of two questions: the decision with the plan, then an optional note", async () => {
    const { run, requests } = setup([{ id: "plan-review", selected: ["Approve"] }, skippedNote]);
    await run("# Plan\n1. a");
    expect(requests.map((request) => request.questions)).toEqual([
      [
        {
          id: "plan-review",
          header: "Plan review",
          question: "Approve this plan?",
          detail: "# Plan\n1. a",
          options: [{ label: "Approve" }, { label: "Keep planning" }],
          intent: { kind: "plan-review", approve: "Approve" },
        },
        { id: "plan-note", header: "Note", question: "Anything to add?" },
      ],
    ]);
  });

  it("returns approved when approved with the note skipped", async () => {
    const { run } = setup([{ id: "plan-review", selected: ["Approve"] }, skippedNote]);
    expect(await run("p")).toEqual({ isError: false, text: "approved", value: { approved: true }, outcome: { kind: "approved" } });
  });

  it("returns the approval and the human's note when approved with a note", async () => {
    const { run } = setup([{ id: "plan-review", selected: ["Approve"] }, { id: "plan-note", selected: [], custom: "keep the old API for a release" }]);
    expect(await run("p")).toEqual({
      isError: false,
      text: "approved. Note from the human: keep the old API for a release",
      value: { approved: true, note: "keep the old API for a release" },
      outcome: { kind: "approved", note: "keep the old API for a release" },
    });
  });

  it("returns the note as the feedback on Keep planning", async () => {
    const { run } = setup([{ id: "plan-review", selected: ["Keep planning"] }, { id: "plan-note", selected: [], custom: "add a rollback step" }]);
    expect(await run("p")).toEqual({ isError: false, text: "add a rollback step", value: { approved: false, feedback: "add a rollback step" }, outcome: { kind: "revise", feedback: "add a rollback step" } });
  });

  it("returns Keep planning when the plan is sent back without a note", async () => {
    const { run } = setup([{ id: "plan-review", selected: ["Keep planning"] }, skippedNote]);
    expect(await run("p")).toEqual({ isError: false, text: "Keep planning", value: { approved: false, feedback: "Keep planning" }, outcome: { kind: "revise", feedback: "Keep planning" } });
  });

  it("returns Keep planning when the decision itself was skipped and there is no note", async () => {
    const { run } = setup([{ id: "plan-review", selected: [] }, skippedNote]);
    expect(await run("p")).toEqual({ isError: false, text: "Keep planning", value: { approved: false, feedback: "Keep planning" }, outcome: { kind: "revise", feedback: "Keep planning" } });
  });

  it("rejects an empty plan with INVALID_ARGS and asks nothing", async () => {
    const { run, requests } = setup([]);
    expect((await run("")).error?.code).toBe("INVALID_ARGS");
    expect(requests).toEqual([]);
  });
});
