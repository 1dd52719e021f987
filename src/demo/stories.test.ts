import { describe, expect, it } from "vitest";
import { LOCALES } from "../i18n/locale";
import { Questions } from "../protocol/schemas";
import { STORIES, storyFromHash } from "./stories";

describe("demo stories", () => {
  it("gives every story a unique id and every request a unique rpcId", () => {
    const ids = STORIES.map((story) => story.id);
    const rpcIds = STORIES.flatMap((story) => story.requests.map((request) => request.rpcId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(rpcIds).size).toBe(rpcIds.length);
  });

  it("only holds question batches the host would accept", () => {
    for (const story of STORIES) {
      expect(story.requests.length, story.id).toBeGreaterThan(0);
      for (const request of story.requests) {
        const parsed = Questions.safeParse(request.questions);
        expect(parsed.success ? null : parsed.error.issues, `${story.id} / ${request.rpcId}`).toBeNull();
      }
    }
  });

  it("seeds drafts only for questions of the story's first request", () => {
    for (const story of STORIES) {
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

  it("covers every state the designers asked for", () => {
    expect(STORIES.map((story) => story.id)).toEqual([
      "single-select",
      "recommended-option",
      "multi-select",
      "optionless",
      "mixed-batch",
      "long-text",
      "thirty-options",
      "cjk-text",
      "plan-review",
      "submitting",
      "rejected-receipt",
      "two-queued",
      "collapsed",
      "dismiss-confirmation",
      "arrives-while-typing",
      "stepper-states",
      "review-step",
      "answered-elsewhere",
      "host-restarted",
      "approval-note",
      "playground",
    ]);
  });
});
