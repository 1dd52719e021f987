import { showHiddenCharacters } from "../../protocol/hidden-characters";

/** Replaces every bidi control and other hidden character with a visible marker such as `⟨U+202E⟩`, so it cannot disguise a label. */
export const showBidiControls = showHiddenCharacters;

/** Model-written text, isolated from what sits beside it and with its hidden characters made visible. */
export function ModelText({ text }: { text: string }) {
  return <bdi dir="auto">{showHiddenCharacters(text)}</bdi>;
}
