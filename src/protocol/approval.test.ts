import { describe, expect, it } from "vitest";
import { checkAnswers } from "./answers";
import { approvalAnswer, approvalQuestions, readApprovalAnswer, type ApprovalDecision } from "./approval";

const approval = { server: "files", tool: "write_file", arguments: '{"path":"a.txt"}' };

describe("approval requests (docs/protocol.md, rule approval-request)", () => {
  const decisions: ApprovalDecision[] = [{ kind: "allow-once" }, { kind: "allow-for-chat" }, { kind: "deny" }, { kind: "deny", reason: "not that file" }];

  it.each(decisions)("an answer for %o passes the host's checks and reads back the same", (decision) => {
    const answers = approvalAnswer(decision);
    expect(checkAnswers(approvalQuestions(approval), answers)).toBeNull();
    expect(readApprovalAnswer(answers)).toEqual(decision);
  });

  it("refuses a skipped decision and free text in place of one", () => {
    const questions = approvalQuestions(approval);
    expect(checkAnswers(questions, [{ id: "approval", selected: [] }, { id: "approval-reason", selected: [] }])).toBe(
      'answers[0]: question "approval" is required and cannot be skipped',
    );
    expect(checkAnswers(questions, [{ id: "approval", selected: [], custom: "sure" }, { id: "approval-reason", selected: [] }])).toBe(
      'answers[0]: question "approval" takes no free text',
    );
  });

  it("drops a blank reason", () => {
    expect(approvalAnswer({ kind: "deny", reason: "   " })).toEqual([
      { id: "approval", selected: ["Deny"] },
      { id: "approval-reason", selected: [] },
    ]);
  });
});
