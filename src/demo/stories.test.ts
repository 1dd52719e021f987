import { describe, expect, it } from "vitest";
import { LOCALES } from "../i18n/locale";
import { readFileSync } from "node:fs";
import { AnswerInputKind, QuestionOrigin, Questions, type QuestionItem } from "../protocol/schemas";
import type { RetireReason } from "../store/state";
import { GROUPS, SLOT_STORIES, STORIES, storyById, storyFromHash } from "./stories";

describe("demo stories", () => {
  it("gives every story a unique id and every request a unique rpcId", () => {
    const ids = STORIES.map((story) => story.id);
    const rpcIds = SLOT_STORIES.flatMap((story) => story.requests.map((request) => request.rpcId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(rpcIds).size).toBe(rpcIds.length);
  });

  it("only holds question batches the host would accept", () => {
    for (const story of SLOT_STORIES) {
      expect(story.requests.length, story.id).toBeGreaterThan(0);
      for (const request of story.requests) {
        const parsed = Questions.safeParse(request.questions);
        expect(parsed.success ? null : parsed.error.issues, `${story.id} / ${request.rpcId}`).toBeNull();
      }
    }
  });

  it("seeds drafts only for questions of the story's first request", () => {
    for (const story of SLOT_STORIES) {
      if (!story.initialDraft) continue;
      const questionIds = story.requests[0]!.questions.map((question) => question.id);
      expect([...story.initialDraft.drafts.keys()].filter((id) => !questionIds.includes(id)), story.id).toEqual([]);
      // A batch of two or more has its review step at index questions.length.
      expect(story.initialDraft.index, story.id).toBeLessThan(questionIds.length > 1 ? questionIds.length + 1 : 1);
    }
  });

  it("titles and describes every story in every UI language", () => {
    for (const story of STORIES) {
      for (const locale of LOCALES) {
        expect(story.title[locale]?.trim(), `${story.id} title ${locale}`).toBeTruthy();
        expect(story.description[locale]?.trim(), `${story.id} description ${locale}`).toBeTruthy();
      }
    }
  });

  it("opens the story a hash names, and the first story for an unknown hash", () => {
    expect(storyFromHash("#plan-review").id).toBe("plan-review");
    expect(storyFromHash("#no-such-story").id).toBe(STORIES[0]!.id);
    expect(storyFromHash("").id).toBe(STORIES[0]!.id);
    expect(storyFromHash("#%").id).toBe(STORIES[0]!.id);
    expect(storyFromHash("#%E0%A4%A").id).toBe(STORIES[0]!.id);
  });

  it("files every story under a group, and every group holds a story", () => {
    for (const story of STORIES) expect(GROUPS, story.id).toContain(story.group);
    for (const group of GROUPS) expect(STORIES.filter((story) => story.group === group).length, group).toBeGreaterThan(0);
  });

  it("names for every story the rules of docs/protocol.md it illustrates, each one written there", () => {
    const protocol = readFileSync(new URL("../../docs/protocol.md", import.meta.url), "utf8");
    for (const story of STORIES) {
      expect(story.rules.length, story.id).toBeGreaterThan(0);
      for (const rule of story.rules) expect(protocol.includes(`[${rule}]`), `${story.id}: [${rule}]`).toBe(true);
    }
  });

  it("has a form story for every kind of answer input, bounds and defaults included", () => {
    const forms = SLOT_STORIES.filter((story) => story.group === "forms").flatMap((story) => story.requests.flatMap((request) => request.questions));
    for (const kind of AnswerInputKind.options) expect(forms.some((question) => (question.input?.kind ?? (question.options ? null : "text")) === kind), kind).toBe(true);
    const has = (what: string, test: (question: QuestionItem) => boolean) => expect(forms.some(test), what).toBe(true);
    has("yes/no", (question) => question.options?.map((option) => option.label).join("/") === "Yes/No");
    has("single choice", (question) => !question.multiSelect && (question.options?.length ?? 0) > 2);
    has("multi choice with bounds", (question) => question.multiSelect === true && question.minSelected !== undefined && question.maxSelected !== undefined);
    has("text bounds", (question) => question.input?.minLength !== undefined && question.input.maxLength !== undefined);
    has("number bounds", (question) => question.input?.minimum !== undefined && question.input.maximum !== undefined);
    has("required", (question) => question.required === true);
    has("default text", (question) => question.defaults?.custom !== undefined);
    has("default choice", (question) => question.defaults?.selected !== undefined);
  });

  it("has a story in Agents for every kind of asker from outside the chat, and Questions for the chat's own agent", () => {
    for (const kind of QuestionOrigin.shape.kind.options) {
      const askers = SLOT_STORIES.filter((story) => (story.requests[0]!.origin?.kind ?? "agent") === kind);
      expect(askers.map((story) => story.group), kind).toContain(kind === "agent" ? "questions" : "agents");
    }
  });

  it("has an approval story for a tool call, a destructive one, and an ACP agent's edit with its diff and execute with its command", () => {
    const approvals = SLOT_STORIES.flatMap((story) => (story.requests[0]!.approval ? [story.requests[0]!.approval] : []));
    expect(approvals.some((approval) => !approval.choices && !approval.destructive), "an MCP tool call").toBe(true);
    expect(approvals.some((approval) => approval.destructive === true), "a destructive tool").toBe(true);
    const acp = approvals.filter((approval) => approval.choices !== undefined);
    for (const approval of acp) expect(approval.choiceKinds?.length, "each option's kind").toBe(approval.choices?.length);
    const edit = acp.find((approval) => approval.toolCall?.kind === "edit");
    expect(edit?.toolCall?.content?.some((part) => part.type === "diff"), "an edit with its diff").toBe(true);
    const execute = acp.find((approval) => approval.toolCall?.kind === "execute");
    expect(execute?.toolCall?.content?.some((part) => part.type === "text" && part.text !== ""), "an execute with its command").toBe(true);
  });

  it("has a story for every reason a request can be retired with unsent answers", () => {
    const reasons: Record<RetireReason, true> = { "answered-elsewhere": true, "answered-unconfirmed": true, "dismissed-elsewhere": true, stopped: true, "resolved-away": true, "host-restarted": true, "host-lost": true };
    for (const reason of Object.keys(reasons)) expect(SLOT_STORIES.some((story) => story.retired === reason), reason).toBe(true);
  });

  it("finds a story by id, and none for an unknown id", () => {
    expect(storyById("approval")?.id).toBe("approval");
    expect(storyById("no-such-story")).toBeNull();
    expect(storyById(null)).toBeNull();
  });
});
