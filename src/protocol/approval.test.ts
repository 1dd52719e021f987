import { describe, expect, it } from "vitest";
import { checkAnswers } from "./answers";
import { approvalAnswer, approvalQuestions, choiceAnswer, readApprovalAnswer, readChoiceAnswer, type ApprovalDecision } from "./approval";

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

describe("an ACP permission's approval: the agent's choices (docs/protocol.md, rule approval-request)", () => {
  const acp = { server: "Qwen Code", tool: "Edit a.ts", arguments: "{}", choices: ["Allow", "Always allow", "Reject"] };

  it("asks with the agent's option names, then the optional reason", () => {
    const questions = approvalQuestions(acp);
    expect(questions[0]).toMatchObject({ id: "approval", question: "Allow Qwen Code to run Edit a.ts?", options: [{ label: "Allow" }, { label: "Always allow" }, { label: "Reject" }], required: true, freeText: false });
    expect(questions[1]?.id).toBe("approval-reason");
  });

  it("an answer for a choice passes the host's checks and reads back the same", () => {
    const answers = choiceAnswer("Reject", " no ");
    expect(checkAnswers(approvalQuestions(acp), answers)).toBeNull();
    expect(readChoiceAnswer(answers)).toEqual({ label: "Reject", reason: "no" });
    expect(readChoiceAnswer(choiceAnswer("Allow"))).toEqual({ label: "Allow" });
    expect(checkAnswers(approvalQuestions(acp), choiceAnswer("Allow once"))).not.toBeNull();
  });
});
