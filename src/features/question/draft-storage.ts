import type { DraftState, QuestionDraft } from "./draft";

const KEY_PREFIX = "parley.question-draft.";
const SAVE_DELAY_MS = 200;
/** Drafts handed to `saveDraftSoon` and not yet written. */
const pending = new Map<string, DraftState>();
let timer: ReturnType<typeof setTimeout> | null = null;
let listening = false;

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

/** Saved entries are `[questionId, draft]` pairs; an object keyed by id (the older format) is read by its own entries only. */
function draftEntries(value: unknown): [string, unknown][] | null {
  if (Array.isArray(value)) {
    const pairs = value.filter((pair): pair is [string, unknown] => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === "string");
    return pairs.length === value.length ? pairs : null;
  }
  if (typeof value === "object" && value !== null) return Object.entries(value);
  return null;
}

function toDraftState(value: unknown): DraftState | null {
  if (typeof value !== "object" || value === null) return null;
  const { drafts, index, collapsed } = value as Record<string, unknown>;
  const entries = draftEntries(drafts);
  if (entries === null) return null;
  if (typeof index !== "number" || !Number.isInteger(index) || index < 0) return null;
  if (typeof collapsed !== "boolean") return null;
  const parsed = new Map<string, QuestionDraft>();
  for (const [id, draft] of entries) {
    const questionDraft = toQuestionDraft(draft);
    if (!questionDraft) return null;
    parsed.set(id, questionDraft);
  }
  return { drafts: parsed, index, collapsed };
}

function serialize(state: DraftState): string {
  return JSON.stringify({ drafts: [...state.drafts], index: state.index, collapsed: state.collapsed });
}

/** Reads the saved draft of a request; a missing, unreadable or corrupt entry gives null. */
export function loadDraft(rpcId: string): DraftState | null {
  const unsaved = pending.get(rpcId);
  if (unsaved) return unsaved;
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
  pending.delete(rpcId);
  try {
    sessionStorage.setItem(storageKey(rpcId), serialize(state));
  } catch (error) {
    console.warn("could not save the question draft", error);
  }
}

/** Writes every draft that `saveDraftSoon` still holds. */
export function flushDrafts(): void {
  if (timer !== null) {
    clearTimeout(timer);
    timer = null;
  }
  for (const [rpcId, state] of [...pending]) saveDraft(rpcId, state);
}

function flushWhenHidden(): void {
  if (document.visibilityState === "hidden") flushDrafts();
}

/**
 * Saves a draft off the input's hot path: writes are coalesced into one per short interval,
 * and flushed at once when the page is hidden or unloaded, or by `flushDrafts`.
 */
export function saveDraftSoon(rpcId: string, state: DraftState): void {
  pending.set(rpcId, state);
  if (!listening && typeof window !== "undefined") {
    listening = true;
    window.addEventListener("pagehide", flushDrafts);
    document.addEventListener("visibilitychange", flushWhenHidden);
  }
  timer ??= setTimeout(flushDrafts, SAVE_DELAY_MS);
}

/** Forgets a request's draft; the app calls it when `question/resolved` arrives. */
export function deleteDraft(rpcId: string): void {
  pending.delete(rpcId);
  try {
    sessionStorage.removeItem(storageKey(rpcId));
  } catch (error) {
    console.warn("could not delete the question draft", error);
  }
}
