import type { DraftState, QuestionDraft } from "./draft";

const KEY_PREFIX = "parley.question-draft.";

function storageKey(rpcId: string): string {
  return KEY_PREFIX + rpcId;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function toQuestionDraft(value: unknown): QuestionDraft | null {
  if (typeof value !== "object" || value === null) return null;
  const { selected, custom, skipped } = value as Record<string, unknown>;
  if (!isStringArray(selected) || typeof custom !== "string" || typeof skipped !== "boolean") return null;
  return { selected, custom, skipped };
}

function toDraftState(value: unknown): DraftState | null {
  if (typeof value !== "object" || value === null) return null;
  const { drafts, index, collapsed } = value as Record<string, unknown>;
  if (typeof drafts !== "object" || drafts === null || Array.isArray(drafts)) return null;
  if (typeof index !== "number" || !Number.isInteger(index) || index < 0) return null;
  if (typeof collapsed !== "boolean") return null;
  const parsed: Record<string, QuestionDraft> = {};
  for (const [id, draft] of Object.entries(drafts)) {
    const questionDraft = toQuestionDraft(draft);
    if (!questionDraft) return null;
    parsed[id] = questionDraft;
  }
  return { drafts: parsed, index, collapsed };
}

/** Reads the saved draft of a request; a missing, unreadable or corrupt entry gives null. */
export function loadDraft(rpcId: string): DraftState | null {
  let raw: string | null;
  try {
    raw = sessionStorage.getItem(storageKey(rpcId));
  } catch (error) {
    console.warn("could not read the question draft", error);
    return null;
  }
  if (raw === null) return null;
  try {
    const state = toDraftState(JSON.parse(raw));
    if (!state) console.warn(`ignoring a malformed question draft for ${rpcId}`);
    return state;
  } catch (error) {
    console.warn(`ignoring a corrupt question draft for ${rpcId}`, error);
    return null;
  }
}

export function saveDraft(rpcId: string, state: DraftState): void {
  try {
    sessionStorage.setItem(storageKey(rpcId), JSON.stringify(state));
  } catch (error) {
    console.warn("could not save the question draft", error);
  }
}

/** Forgets a request's draft; the app calls it when `question/resolved` arrives. */
export function deleteDraft(rpcId: string): void {
  try {
    sessionStorage.removeItem(storageKey(rpcId));
  } catch (error) {
    console.warn("could not delete the question draft", error);
  }
}
