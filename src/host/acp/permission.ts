import type { PermissionOption, PermissionOptionKind, RequestPermissionRequest, RequestPermissionResponse, ToolCallContent, ToolCallUpdate } from "@agentclientprotocol/sdk";
import { approvalQuestions, readChoiceAnswer } from "../../protocol/approval";
import { LIMITS, type AcpToolCallData, type AcpToolContent, type AnswerItem, type QuestionItem, type QuestionOrigin, type ToolApproval } from "../../protocol/schemas";
import { isRecord } from "../../protocol/elicitation-field";

/** The order an ACP permission's options are shown in, least permissive allow first. */
export const PERMISSION_KIND_ORDER: readonly PermissionOptionKind[] = ["allow_once", "allow_always", "reject_once", "reject_always"];

/** The longest text of a diff side or a content text put in an approval's data; longer ones are cut and marked `truncated`. */
export const APPROVAL_TEXT_CHARS = 200_000;

/** Where a deny reason travels in the response, as ACP has no field for it. */
export const REASON_META_KEY = "parley";

/** What the seam is asked for an ACP permission request (an AskRequest without sessionId and signal). */
export interface PermissionQuestion {
  questions: QuestionItem[];
  origin: QuestionOrigin;
  /** Set for a tool approval; absent for a Qwen user_question, which is a plain question batch. */
  approval?: ToolApproval;
}

export interface AcpAgentName {
  name: string;
  title: string;
}

/** What the human decided, read back from the answers: the response for the agent and the reason to send as the next prompt. */
export interface PermissionDecision {
  response: RequestPermissionResponse & { answers?: Record<string, string> };
  /** The kind of the option chosen; null when the outcome is `cancelled`. */
  kind: PermissionOptionKind | null;
  reason?: string;
}

const cancelled = (): PermissionDecision => ({ response: { outcome: { outcome: "cancelled" } }, kind: null });

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The agent's options in PERMISSION_KIND_ORDER (stable within a kind). */
export function orderedOptions(options: readonly PermissionOption[]): PermissionOption[] {
  return [...options].sort((a, b) => PERMISSION_KIND_ORDER.indexOf(a.kind) - PERMISSION_KIND_ORDER.indexOf(b.kind));
}

/** The labels shown for the ordered options: their names, cut to the label bound, made unique. */
export function optionLabels(options: readonly PermissionOption[]): string[] {
  const seen = new Set<string>();
  return options.map((option) => {
    const base = clip(option.name.trim() === "" ? option.kind.replace("_", " ") : option.name.trim(), LIMITS.labelChars - 4);
    let label = base;
    for (let n = 2; seen.has(label); n++) label = `${base} (${n})`;
    seen.add(label);
    return label;
  });
}

/**
 * The option for a decision made by kind, never by id (agents name their ids differently): the first
 * option of that kind; an allow-always falls back to allow-once and a reject to the other reject, never
 * an allow to a reject. Null when the agent offers none that fits.
 */
export function optionForKind(options: readonly PermissionOption[], kind: PermissionOptionKind): PermissionOption | null {
  const fallbacks: Record<PermissionOptionKind, PermissionOptionKind[]> = {
    allow_once: ["allow_once"],
    allow_always: ["allow_always", "allow_once"],
    reject_once: ["reject_once", "reject_always"],
    reject_always: ["reject_always", "reject_once"],
  };
  for (const wanted of fallbacks[kind]) {
    const option = options.find((candidate) => candidate.kind === wanted);
    if (option) return option;
  }
  return null;
}

/** The response that picks `kind` (by kind), a reject carrying its reason in `_meta`; `cancelled` when no option fits. */
export function responseForKind(request: Pick<RequestPermissionRequest, "options">, kind: PermissionOptionKind, reason?: string): PermissionDecision {
  const option = optionForKind(request.options, kind);
  if (!option) return cancelled();
  const text = reason?.trim();
  const rejects = option.kind.startsWith("reject");
  return {
    response: { outcome: { outcome: "selected", optionId: option.optionId }, ...(rejects && text ? { _meta: { [REASON_META_KEY]: { reason: text } } } : {}) },
    kind: option.kind,
    ...(rejects && text ? { reason: text } : {}),
  };
}

function contentOf(item: ToolCallContent): AcpToolContent {
  switch (item.type) {
    case "diff": {
      const oldText = item.oldText ?? undefined;
      const truncated = item.newText.length > APPROVAL_TEXT_CHARS || (oldText?.length ?? 0) > APPROVAL_TEXT_CHARS;
      return {
        type: "diff",
        path: item.path,
        ...(oldText === undefined ? {} : { oldText: oldText.slice(0, APPROVAL_TEXT_CHARS) }),
        newText: item.newText.slice(0, APPROVAL_TEXT_CHARS),
        ...(truncated ? { truncated: true } : {}),
      };
    }
    case "content":
      if (item.content.type === "text") {
        const { text } = item.content;
        return { type: "text", text: text.slice(0, APPROVAL_TEXT_CHARS), ...(text.length > APPROVAL_TEXT_CHARS ? { truncated: true } : {}) };
      }
      return { type: "other", label: item.content.type };
    case "terminal":
      return { type: "other", label: `terminal ${item.terminalId}` };
    default:
      return { type: "other", label: String((item as { type?: unknown }).type) };
  }
}

/** The tool call as approval data: title, kind, locations and content (diffs and texts bounded). */
export function toolCallData(toolCall: ToolCallUpdate): AcpToolCallData {
  return {
    toolCallId: toolCall.toolCallId,
    title: clip(toolCall.title ?? toolCall.name ?? "a tool call", 2000),
    ...(toolCall.kind ? { kind: toolCall.kind } : {}),
    ...(toolCall.locations ? { locations: toolCall.locations.map((location) => ({ path: location.path, ...(typeof location.line === "number" ? { line: location.line } : {}) })) } : {}),
    ...(toolCall.content ? { content: toolCall.content.map(contentOf) } : {}),
  };
}

/**
 * A tool call as an update leaves it: the fields the update carries replace those known before (an update carries only
 * what changed, and a permission request's tool call is such an update).
 */
export function mergeToolCall(previous: AcpToolCallData | undefined, update: ToolCallUpdate): AcpToolCallData {
  const next = toolCallData({ ...update, title: update.title ?? previous?.title ?? null });
  return {
    toolCallId: update.toolCallId,
    title: update.title ? next.title : (previous?.title ?? next.title),
    ...((next.kind ?? previous?.kind) ? { kind: next.kind ?? previous?.kind } : {}),
    ...((next.locations ?? previous?.locations) ? { locations: next.locations ?? previous?.locations } : {}),
    ...((next.content ?? previous?.content) ? { content: next.content ?? previous?.content } : {}),
  };
}

/** What a turn was told of a tool call before a permission request about it: its data and its last raw input. */
export interface KnownToolCall {
  call: AcpToolCallData;
  rawInput: unknown;
}

interface QwenQuestion {
  question: string;
  header?: string;
  options: { label: string; description?: string }[];
  multiSelect: boolean;
}

/**
 * The questions of a Qwen Code user_question, else null. Qwen Code 0.24 marks it on the tool call
 * (`toolCall._meta.qwenInteractionKind: "user_question"`, questions in `toolCall._meta.qwenQuestions`); the request's own
 * `_meta` is read too.
 */
export function qwenQuestionsOf(request: Pick<RequestPermissionRequest, "_meta"> & { toolCall?: Pick<RequestPermissionRequest["toolCall"], "_meta"> }): QwenQuestion[] | null {
  const marked = (value: unknown): value is Record<string, unknown> => isRecord(value) && value.qwenInteractionKind === "user_question";
  const meta = marked(request.toolCall?._meta) ? request.toolCall._meta : request._meta;
  if (!marked(meta) || !Array.isArray(meta.qwenQuestions)) return null;
  const questions: QwenQuestion[] = [];
  for (const raw of meta.qwenQuestions as unknown[]) {
    if (!isRecord(raw) || typeof raw.question !== "string" || raw.question.trim() === "") return null;
    const options = Array.isArray(raw.options) ? raw.options : [];
    const read = options.map((option: unknown) =>
      isRecord(option) && typeof option.label === "string" ? { label: option.label, ...(typeof option.description === "string" ? { description: option.description } : {}) } : null,
    );
    if (read.some((option) => option === null)) return null;
    questions.push({
      question: raw.question,
      ...(typeof raw.header === "string" ? { header: raw.header } : {}),
      options: read as QwenQuestion["options"],
      multiSelect: raw.multiSelect === true,
    });
  }
  return questions.length > 0 && questions.length <= LIMITS.questionsPerBatch ? questions : null;
}

function qwenQuestionItems(questions: QwenQuestion[]): QuestionItem[] {
  return questions.map((item, index) => {
    const seen = new Set<string>();
    const options = item.options
      .filter((option) => option.label.trim() !== "")
      .slice(0, LIMITS.optionsPerQuestion)
      .map((option) => ({ label: clip(option.label, LIMITS.labelChars), ...(option.description ? { description: clip(option.description, LIMITS.descriptionChars) } : {}) }))
      .filter((option) => !seen.has(option.label) && seen.add(option.label) !== undefined);
    return {
      id: String(index),
      question: clip(item.question, LIMITS.questionChars),
      ...(item.header ? { header: clip(item.header, LIMITS.headerChars) } : {}),
      ...(options.length > 0 ? { options } : {}),
      ...(item.multiSelect ? { multiSelect: true } : {}),
    };
  });
}

/**
 * An ACP call's raw input as the card shows it: its JSON, cut past APPROVAL_TEXT_CHARS with a last line that says how long
 * it was (an agent writing a file puts the whole file in it, and the request goes to every tab and device).
 */
function rawInputText(rawInput: unknown): string {
  const text = rawInput === undefined ? "{}" : (JSON.stringify(rawInput, null, 2) ?? "{}");
  if (text.length <= APPROVAL_TEXT_CHARS) return text;
  return `${text.slice(0, APPROVAL_TEXT_CHARS)}\n… cut here: the raw input is ${text.length.toLocaleString("en-US")} characters long`;
}

/**
 * The seam's request for an ACP `session/request_permission`: a Qwen user_question becomes a plain
 * question batch (one question per Qwen question, ids "0", "1", …); anything else an approval whose
 * choices are the agent's option names in PERMISSION_KIND_ORDER, followed by the optional reason.
 */
export function permissionQuestion(agent: AcpAgentName, request: RequestPermissionRequest, known?: KnownToolCall): PermissionQuestion {
  const origin: QuestionOrigin = { kind: "acp-agent", name: agent.name, title: agent.title };
  const qwen = qwenQuestionsOf(request);
  if (qwen) return { questions: qwenQuestionItems(qwen), origin };
  // The request may name a call the turn already showed with only its id and what changed (Codex's edits): the card
  // shows the whole call, its diff and its command, as the turn knows it.
  const toolCall = mergeToolCall(known?.call, request.toolCall);
  const rawInput = request.toolCall.rawInput ?? known?.rawInput;
  const approval: ToolApproval = {
    server: clip(agent.title, 200),
    tool: clip(toolCall.title, 200),
    arguments: rawInputText(rawInput),
    choices: optionLabels(orderedOptions(request.options)),
    choiceKinds: orderedOptions(request.options).map((option) => option.kind),
    toolCall,
  };
  return { questions: approvalQuestions(approval), origin, approval };
}

/** Joins a Qwen answer: the chosen labels, then the free text, with ", ". */
function qwenAnswerText(answer: AnswerItem): string | null {
  const parts = [...answer.selected, ...(answer.custom?.trim() ? [answer.custom.trim()] : [])];
  return parts.length > 0 ? parts.join(", ") : null;
}

/**
 * Reads answers the seam accepted for `permissionQuestion(agent, request)` back into the agent's
 * response. A Qwen user_question answers its allow-once option with top-level `answers` keyed by the
 * question's index ("0", "1", …), several labels joined with ", " (a skipped question is left out); an
 * approval picks the option whose label was chosen, a reject with the reason in `_meta`.
 */
export function permissionResponse(request: RequestPermissionRequest, answers: readonly AnswerItem[]): PermissionDecision {
  if (qwenQuestionsOf(request)) {
    const chosen = responseForKind(request, "allow_once");
    if (chosen.kind === null) return chosen;
    const byIndex: Record<string, string> = {};
    answers.forEach((answer, index) => {
      const text = qwenAnswerText(answer);
      if (text !== null) Object.defineProperty(byIndex, String(index), { value: text, enumerable: true, writable: true, configurable: true });
    });
    return { ...chosen, response: { ...chosen.response, answers: byIndex } };
  }
  const { label, reason } = readChoiceAnswer(answers);
  const ordered = orderedOptions(request.options);
  const index = label === null ? -1 : optionLabels(ordered).indexOf(label);
  const option = ordered[index];
  if (!option) return cancelled();
  const rejects = option.kind.startsWith("reject");
  return {
    response: { outcome: { outcome: "selected", optionId: option.optionId }, ...(rejects && reason ? { _meta: { [REASON_META_KEY]: { reason } } } : {}) },
    kind: option.kind,
    ...(rejects && reason ? { reason } : {}),
  };
}

/**
 * The response when the human dismissed the request (ASK_CANCELLED): a reject, by kind (for a Qwen
 * question its cancel option); `cancelled` when the agent offers no reject.
 */
export function dismissedResponse(request: Pick<RequestPermissionRequest, "options">): PermissionDecision {
  return responseForKind(request, "reject_once");
}

/** The response when the request was never answered (Stop, the turn ended, shutdown). */
export function abortedResponse(): PermissionDecision {
  return cancelled();
}
