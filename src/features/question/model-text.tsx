/** Bidi controls that can reorder the text around them: embeddings, overrides, isolates and marks. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/** Replaces every bidi control character with a visible marker such as `⟨U+202E⟩`, so it cannot disguise a label. */
export function showBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (control) => `⟨U+${control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`);
}

/** Model-written text, isolated from what sits beside it and with its bidi controls made visible. */
export function ModelText({ text }: { text: string }) {
  return <bdi dir="auto">{showBidiControls(text)}</bdi>;
}
