import { ALLOW_ONCE_LABEL, choiceAnswer, DENY_LABEL } from "../../protocol/approval";
import { showHiddenCharacters } from "../../protocol/hidden-characters";
import { clipLabel, plainLabel } from "../../protocol/plain-label";
import type { AnswerItem, QuestionRequestedFrame, QuestionResolvedFrame, ToolApproval } from "../../protocol/schemas";

/** Web Push carries at most 4096 bytes of ciphertext; this leaves room for the aes128gcm header, padding delimiter and tag. */
export const MAX_PAYLOAD_BYTES = 3800;
/** At most this many actions are offered; the worker offers none when the platform allows fewer than a request needs. */
export const MAX_PUSH_ACTIONS = 3;
const BODY_CHARS = 600;
const HIDDEN_TEXT = "Parley has a question for you";

/** One notification action: its title and the exact answers `POST /api/respond` gets when it is chosen. */
export interface PushAction {
  action: string;
  title: string;
  answers: AnswerItem[];
}

/** What a device receives when a request starts waiting (docs/protocol.md, push-payload). */
export interface RequestPush {
  v: 1;
  kind: "request";
  rpcId: string;
  sessionId: string;
  title: string;
  body: string;
  actions: PushAction[];
  /** Requests pending on the host once this one was added: the app badge. */
  pending: number;
}

/** What a device receives when the request `rpcId` left the pending table, whatever ended it. */
export interface ResolvedPush {
  v: 1;
  kind: "resolved";
  rpcId: string;
  sessionId: string;
  outcome: QuestionResolvedFrame["outcome"];
  pending: number;
}

export type PushPayload = RequestPush | ResolvedPush;

/**
 * Outside words as a notification shows them, at most `chars` characters: on one line, without bidi controls (an override
 * could make a question or an option read as something else), and every other hidden character (a zero-width space, a
 * tag) shown as a marker such as `⟨U+200B⟩`, as the app shows it: two options that differ only in one read apart.
 */
const noticeText = (text: string, chars: number) => clipLabel(showHiddenCharacters(plainLabel(text)), chars);

function askerOf(frame: QuestionRequestedFrame): string {
  if (frame.origin === undefined || frame.origin.kind === "agent") return "Your agent";
  return plainLabel(frame.origin.name) || (frame.origin.kind === "mcp-server" ? "An MCP server" : "An agent");
}

/**
 * An approval's choices a notification offers: Allow once and Deny, or of an ACP agent's own choices the one of kind
 * `allow_once` and the one of kind `reject_once` (never an "always"); a choice the agent did not offer is left out.
 */
function approvalActionLabels(approval: ToolApproval): string[] {
  const { choices, choiceKinds = [] } = approval;
  if (choices === undefined || choices.length === 0) return [ALLOW_ONCE_LABEL, DENY_LABEL];
  const ofKind = (kind: "allow_once" | "reject_once") => choices.find((_, index) => choiceKinds[index] === kind);
  return [ofKind("allow_once"), ofKind("reject_once")].filter((label) => label !== undefined);
}

/** Characters of an action's title; a longer label is cut with an ellipsis. */
const ACTION_TITLE_CHARS = 40;

/** The labels as action titles, or none when two would read the same once cut: a button must say which answer it sends. */
function actionsOf(labels: readonly string[], answersOf: (label: string) => AnswerItem[]): PushAction[] {
  const actions = labels.map((label, index) => ({ action: `a${index}`, title: noticeText(label, ACTION_TITLE_CHARS), answers: answersOf(label) }));
  return new Set(actions.map((action) => action.title)).size === actions.length ? actions : [];
}

/**
 * The actions a request can be answered with from a notification: an approval's allow once and deny, or a single
 * single-select question's options. A destructive tool's approval offers Deny alone: the app makes Deny its default and
 * shows the call's arguments, which a notification cannot; allowing it takes the app.
 */
export function actionsFor(frame: QuestionRequestedFrame): PushAction[] {
  if (frame.approval !== undefined) {
    const labels = frame.approval.destructive === true ? [DENY_LABEL] : approvalActionLabels(frame.approval);
    return actionsOf(labels, choiceAnswer);
  }
  const [question, ...others] = frame.questions;
  if (question === undefined || others.length > 0) return [];
  const options = question.options ?? [];
  if (question.multiSelect || question.intent !== undefined || options.length === 0 || options.length > MAX_PUSH_ACTIONS) return [];
  return actionsOf(
    options.map((option) => option.label),
    (label) => [{ id: question.id, selected: [label] }],
  );
}

/** The payload of a pending request: asker and header as the title, the first question as the body; `hideText` leaves only a generic line and no actions. */
export function requestPayload(frame: QuestionRequestedFrame, pending: number, hideText: boolean): RequestPush {
  const base = { v: 1 as const, kind: "request" as const, rpcId: frame.rpcId, sessionId: frame.sessionId, pending };
  if (hideText) return { ...base, title: "Parley", body: HIDDEN_TEXT, actions: [] };
  const first = frame.questions[0]!;
  const header = frame.approval !== undefined ? (frame.approval.destructive === true ? "Destructive tool approval" : "Tool approval") : plainLabel(first.header ?? "") || (frame.questions.length > 1 ? `${frame.questions.length} questions` : "Question");
  const more = frame.questions.length > 1 ? ` (+${frame.questions.length - 1} more)` : "";
  let payload: RequestPush = { ...base, title: noticeText(`${askerOf(frame)}: ${header}`, 120), body: `${noticeText(first.question, BODY_CHARS)}${more}`, actions: actionsFor(frame) };
  if (payloadBytes(payload) > MAX_PAYLOAD_BYTES) payload = { ...payload, actions: [] };
  if (payloadBytes(payload) > MAX_PAYLOAD_BYTES) payload = { ...payload, title: clipLabel(payload.title, 40), body: noticeText(first.question, 200) };
  return payload;
}

export function resolvedPayload(frame: QuestionResolvedFrame, pending: number): ResolvedPush {
  return { v: 1, kind: "resolved", rpcId: frame.rpcId, sessionId: frame.sessionId, outcome: frame.outcome, pending };
}

export function payloadBytes(payload: PushPayload): number {
  return Buffer.byteLength(JSON.stringify(payload));
}
