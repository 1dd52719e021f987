import { useEffect, useState } from "react";

/** Keeps `text` as the draft of `key`; an empty draft is dropped rather than kept as "". */
export function keepDraft(drafts: Map<string, string>, key: string, text: string): void {
  if (text === "") drafts.delete(key);
  else drafts.set(key, text);
}

/**
 * The composer's text: the draft of `draftKey`, swapped for the other draft when the key changes.
 * A `prefill` is added after what the box holds, once per object, and `onPrefillTaken` hears of it.
 */
export function useDraftText(draftKey: string, drafts: Map<string, string>, prefill: { text: string } | null, onPrefillTaken: (() => void) | undefined) {
  const [text, setText] = useState(() => drafts.get(draftKey) ?? "");
  const [shownKey, setShownKey] = useState(draftKey);

  if (shownKey !== draftKey) {
    setShownKey(draftKey);
    setText(drafts.get(draftKey) ?? "");
  }

  const [takenPrefill, setTakenPrefill] = useState<{ text: string } | null>(null);
  if (prefill !== null && prefill !== takenPrefill) {
    setTakenPrefill(prefill);
    const held = shownKey === draftKey ? text : (drafts.get(draftKey) ?? "");
    const next = held === "" ? prefill.text : `${held}\n${prefill.text}`;
    setText(next);
    keepDraft(drafts, draftKey, next);
  }
  useEffect(() => {
    if (takenPrefill !== null) onPrefillTaken?.();
  }, [takenPrefill, onPrefillTaken]);

  return { text, setText };
}
