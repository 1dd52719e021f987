import { describe, expect, it } from "vitest";
import type { PendingRequest, QuestionItem } from "./schemas";
import { parsePlanReviewResult, planReviewAnswers, planReviewQuestions, planReviewResult, toPlanReview } from "./plan-review";

const [planQuestion, noteQuestion] = planReviewQuestions("1. Build\n2. Ship") as [QuestionItem, QuestionItem];

function request(questions: QuestionItem[]): PendingRequest {
  return { rpcId: "r1", sessionId: "s1", questions, createdAt: "2026-01-01T00:00:00.000Z" };
}

describe("toPlanReview", () => {
  it("recognises present_plan's request and names its approve and refuse labels and its note question", () => {
    expect(toPlanReview(request([planQuestion, noteQuestion]))).toEqual({
      question: planQuestion,
      note: noteQuestion,
      plan: "1. Build\n2. Ship",
      approveLabel: "Approve",
      refuseLabel: "Keep planning",
    });
  });

  it("has no refuse label when the only option is approve", () => {
    const question = { ...planQuestion, options: [{ label: "Approve" }] };
    expect(toPlanReview(request([question, noteQuestion]))?.refuseLabel).toBeNull();
  });

  it("falls back to the wizard for anything else", () => {
    expect(toPlanReview(request([planQuestion]))).toBeNull();
    expect(toPlanReview(request([planQuestion, noteQuestion, { id: "x", question: "More?" }]))).toBeNull();
    expect(toPlanReview(request([noteQuestion, planQuestion]))).toBeNull();
    expect(toPlanReview(request([planQuestion, { ...noteQuestion, options: [{ label: "Yes" }] }]))).toBeNull();
    expect(toPlanReview(request([planQuestion, { ...noteQuestion, multiSelect: true }]))).toBeNull();
    expect(toPlanReview(request([{ ...planQuestion, multiSelect: true }, noteQuestion]))).toBeNull();
    expect(toPlanReview(request([{ ...planQuestion, detail: undefined }, noteQuestion]))).toBeNull();
    expect(toPlanReview(request([{ ...planQuestion, detail: "  " }, noteQuestion]))).toBeNull();
    expect(toPlanReview(request([{ ...planQuestion, intent: { kind: "plan-review", approve: "Yes" } }, noteQuestion]))).toBeNull();
    expect(toPlanReview(request([{ ...planQuestion, intent: undefined }, noteQuestion]))).toBeNull();
    expect(
      toPlanReview(request([{ ...planQuestion, options: [{ label: "Approve" }, { label: "No" }, { label: "Later" }] }, noteQuestion])),
    ).toBeNull();
  });
});

describe("plan review answers and results", () => {
  const review = toPlanReview(request([planQuestion, noteQuestion]))!;

  it("skips the note when nothing but whitespace was typed", () => {
    expect(planReviewAnswers(review, "Approve", "  ")).toEqual([
      { id: "plan-review", selected: ["Approve"] },
      { id: "plan-note", selected: [] },
    ]);
  });

  it("carries a typed note as the note question's custom answer", () => {
    expect(planReviewAnswers(review, "Keep planning", "add a rollback step")).toEqual([
      { id: "plan-review", selected: ["Keep planning"] },
      { id: "plan-note", selected: [], custom: "add a rollback step" },
    ]);
  });

  it("turns each answer into the text present_plan returns, and reads it back", () => {
    const approved = planReviewResult(planReviewAnswers(review, "Approve", ""));
    const noted = planReviewResult(planReviewAnswers(review, "Approve", "ship on Monday"));
    const refused = planReviewResult(planReviewAnswers(review, "Keep planning", ""));
    const feedback = planReviewResult(planReviewAnswers(review, "Keep planning", "split step 2"));
    expect([approved, noted, refused, feedback]).toEqual(["approved", "approved. Note from the human: ship on Monday", "Keep planning", "split step 2"]);
    expect([approved, noted, refused, feedback].map(parsePlanReviewResult)).toEqual([
      { approved: true, note: null },
      { approved: true, note: "ship on Monday" },
      { approved: false, feedback: "Keep planning" },
      { approved: false, feedback: "split step 2" },
    ]);
  });
});
