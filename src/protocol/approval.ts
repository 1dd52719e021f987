import type { AnswerItem, QuestionItem, ToolApproval } from "./schemas";

/** The id of an approval request's one question (docs/protocol.md, rule approval-request). */
export const APPROVAL_ID = "approval";
/** The id of the optional free-text question that carries the reason for a Deny. */
export const APPROVAL_REASON_ID = "approval-reason";
export const ALLOW_ONCE_LABEL = "Allow once";
export const ALLOW_FOR_CHAT_LABEL = "Allow for this chat";
export const DENY_LABEL = "Deny";

/** What the human decided about one tool call. */
export type ApprovalDecision = { kind: "allow-once" } | { kind: "allow-for-chat" } | { kind: "deny"; reason?: string };

/**
 * The questions of an approval request: a required single-select of the three decisions (least
 * permissive allow first, no free text), then the optional reason that goes with Deny.
 */
export function approvalQuestions(approval: ToolApproval): QuestionItem[] {
  if (approval.choices !== undefined && approval.choices.length > 0) {
    return [
      {
        id: APPROVAL_ID,
        header: "Tool approval",
        question: `Allow ${approval.server} to run ${approval.tool}?`,
        options: approval.choices.map((label) => ({ label })),
        required: true,
        freeText: false,
      },
      { id: APPROVAL_REASON_ID, header: "Reason", question: "Why deny this call? (optional)" },
    ];
  }
  return [
    {
      id: APPROVAL_ID,
      header: "Tool approval",
      question: `Allow ${approval.server} to run ${approval.tool}?`,
      options: [{ label: ALLOW_ONCE_LABEL }, { label: ALLOW_FOR_CHAT_LABEL }, { label: DENY_LABEL }],
      required: true,
      freeText: false,
    },
    { id: APPROVAL_REASON_ID, header: "Reason", question: "Why deny this call? (optional)" },
  ];
}

/** The answer items the browser sends for a decision. */
export function approvalAnswer(decision: ApprovalDecision): AnswerItem[] {
  switch (decision.kind) {
    case "allow-once":
      return [{ id: APPROVAL_ID, selected: [ALLOW_ONCE_LABEL] }, { id: APPROVAL_REASON_ID, selected: [] }];
    case "allow-for-chat":
      return [{ id: APPROVAL_ID, selected: [ALLOW_FOR_CHAT_LABEL] }, { id: APPROVAL_REASON_ID, selected: [] }];
    case "deny": {
      const reason = decision.reason?.trim();
      return [{ id: APPROVAL_ID, selected: [DENY_LABEL] }, { id: APPROVAL_REASON_ID, selected: [], ...(reason ? { custom: reason } : {}) }];
    }
  }
}

/**
 * Reads the decision back from answers the host already checked against `approvalQuestions`;
 * a reason given with an Allow is ignored.
 */
export function readApprovalAnswer(answers: readonly AnswerItem[]): ApprovalDecision {
  const label = answers[0]?.selected[0];
  if (label === ALLOW_ONCE_LABEL) return { kind: "allow-once" };
  if (label === ALLOW_FOR_CHAT_LABEL) return { kind: "allow-for-chat" };
  const reason = answers[1]?.custom?.trim();
  return reason ? { kind: "deny", reason } : { kind: "deny" };
}

/** The answer items for one of an ACP permission's choices (`approval.choices`); a reason goes with a reject. */
export function choiceAnswer(label: string, reason?: string): AnswerItem[] {
  const text = reason?.trim();
  return [{ id: APPROVAL_ID, selected: [label] }, { id: APPROVAL_REASON_ID, selected: [], ...(text ? { custom: text } : {}) }];
}

/** Reads the chosen label and the reason back from answers the host checked against `approvalQuestions` of an approval with `choices`. */
export function readChoiceAnswer(answers: readonly AnswerItem[]): { label: string | null; reason?: string } {
  const label = answers[0]?.selected[0] ?? null;
  const reason = answers[1]?.custom?.trim();
  return reason ? { label, reason } : { label };
}
