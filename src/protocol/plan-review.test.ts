import { describe, expect, it } from "vitest";
import type { PendingRequest, QuestionItem } from "./schemas";
import { toPlanReview } from "./plan-review";

const planQuestion: QuestionItem = {
  id: "plan-review",
  header: "Plan review",
  question: "Approve this plan?",
  detail: "1. Build\n2. Ship",
  options: [{ label: "Approve" }, { label: "Keep planning" }],
  intent: { kind: "plan-review", approve: "Approve" },
};

function request(questions: QuestionItem[]): PendingRequest {
  return { rpcId: "r1", sessionId: "s1", questions, createdAt: "2026-01-01T00:00:00.000Z" };
}

describe("toPlanReview", () => {
  it("recognises the plan-review question and names its approve and refuse labels", () => {
    expect(toPlanReview(request([planQuestion]))).toEqual({
      question: planQuestion,
      plan: "1. Build\n2. Ship",
      approveLabel: "Approve",
      refuseLabel: "Keep planning",
    });
  });

  it("has no refuse label when the only option is approve", () => {
    const question = { ...planQuestion, options: [{ label: "Approve" }] };
    expect(toPlanReview(request([question]))?.refuseLabel).toBeNull();
  });

  it("falls back to the wizard for anything else", () => {
    expect(toPlanReview(request([planQuestion, { id: "x", question: "More?" }]))).toBeNull();
    expect(toPlanReview(request([{ ...planQuestion, multiSelect: true }]))).toBeNull();
    expect(toPlanReview(request([{ ...planQuestion, detail: undefined }]))).toBeNull();
    expect(toPlanReview(request([{ ...planQuestion, detail: "  " }]))).toBeNull();
    expect(toPlanReview(request([{ ...planQuestion, intent: { kind: "plan-review", approve: "Yes" } }]))).toBeNull();
    expect(toPlanReview(request([{ ...planQuestion, intent: undefined }]))).toBeNull();
    expect(
      toPlanReview(request([{ ...planQuestion, options: [{ label: "Approve" }, { label: "No" }, { label: "Later" }] }])),
    ).toBeNull();
  });
});
