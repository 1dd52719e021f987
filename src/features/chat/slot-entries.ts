import type { ComponentType } from "react";
import type { SessionData } from "../../store/state";

/** What an entry sees when it decides whether to take over the composer. */
export interface SlotContext {
  sessionId: string;
  state: SessionData;
}

/** Props of the component an entry renders in place of the composer. */
export interface SlotComponentProps<Match> {
  match: Match;
  sessionId: string;
}

/**
 * One contender for the conversation's composer slot. The highest `priority` whose `select`
 * returns non-null renders; `select` must return a stable reference for unchanged state.
 */
export interface SlotEntry<Match = unknown> {
  key: string;
  priority: number;
  select(context: SlotContext): Match | null;
  Component: ComponentType<SlotComponentProps<Match>>;
  /** Ends the takeover without the component, for the Dismiss button shown when the component failed to render. */
  dismiss?(match: Match, sessionId: string): Promise<void>;
}

/** The entry that owns the slot and what it selected. */
export interface SlotChoice {
  entry: SlotEntry;
  match: unknown;
}

/** Erases an entry's match type so entries of different kinds share one list. */
export function defineSlotEntry<Match>(entry: SlotEntry<Match>): SlotEntry {
  return entry as unknown as SlotEntry;
}

/** Orders entries by priority, highest first; equal priorities keep their registration order. */
export function orderSlotEntries(entries: readonly SlotEntry[]): SlotEntry[] {
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => b.entry.priority - a.entry.priority || a.index - b.index)
    .map(({ entry }) => entry);
}

/** The first entry, by priority, that selects something; null leaves the slot to the normal composer. */
export function chooseSlotEntry(ordered: readonly SlotEntry[], context: SlotContext): SlotChoice | null {
  for (const entry of ordered) {
    const match = entry.select(context);
    if (match !== null) return { entry, match };
  }
  return null;
}

/**
 * A store selector for one session's slot choice that returns the previous object while the winner
 * and its match are unchanged, so subscribers re-render only when the slot really changes hands.
 */
export function createSlotChoiceSelector(entries: readonly SlotEntry[], sessionId: string | null) {
  const ordered = orderSlotEntries(entries);
  let last: SlotChoice | null = null;
  return (state: SessionData): SlotChoice | null => {
    const next = sessionId === null ? null : chooseSlotEntry(ordered, { sessionId, state });
    if (next === null || last === null) {
      last = next;
      return next;
    }
    if (next.entry === last.entry && next.match === last.match) return last;
    last = next;
    return next;
  };
}
