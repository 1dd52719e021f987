/**
 * Characters a reader cannot see but that change what text says: bidi controls (which can reorder
 * `txt.exe` into `exe.txt`), zero-width spaces and joiners, word joiners, soft hyphens, the BOM,
 * variation selectors, tag characters, Hangul fillers: every format character (Unicode `Cf`) and
 * every default-ignorable code point.
 */
const HIDDEN = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
/** Format characters that draw a visible sign (the Arabic number sign and its kin), left as they are. */
const VISIBLE_FORMAT = /[\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u{110BD}\u{110CD}]/u;
const JOINER = /[\u200C\u200D]/u;
/** Letters and marks of the scripts whose spelling needs ZWNJ or ZWJ (Persian's ZWNJ, an Indic half form). */
const JOINING_SCRIPT = /[\p{scx=Arabic}\p{scx=Syriac}\p{scx=Nko}\p{scx=Mongolian}\p{scx=Devanagari}\p{scx=Bengali}\p{scx=Gurmukhi}\p{scx=Gujarati}\p{scx=Oriya}\p{scx=Tamil}\p{scx=Telugu}\p{scx=Kannada}\p{scx=Malayalam}\p{scx=Sinhala}]/u;
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
/** What a ZWJ of an emoji sequence follows: a pictograph, a skin tone or an emoji presentation selector. */
const EMOJI_PART = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const VARIATION_SELECTOR = /[\u180B-\u180D\u180F\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u;
const TAG = /[\u{E0020}-\u{E007F}]/u;
const BLACK_FLAG = "\u{1F3F4}";
const CANCEL_TAG = "\u{E007F}";
/** A subdivision flag's tags after the black flag: a region and subdivision code of 2 to 6 tag letters and digits, then the cancel tag. */
const SUBDIVISION_TAGS = /^[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{2,6}\u{E007F}$/u;
const SPACE = /\s/u;

const isHidden = (char: string) => HIDDEN.test(char) && !VISIBLE_FORMAT.test(char);
const inJoiningScript = (char: string | undefined) => char !== undefined && JOINING_SCRIPT.test(char) && LETTER_OR_MARK.test(char);

/** Whether the hidden character at `index` is part of ordinary spelling or an emoji, and so is left to render; `flagTags`: it is a subdivision flag's tag. */
function isSpelling(chars: readonly string[], index: number, flagTags: boolean): boolean {
  const char = chars[index]!;
  const before = chars[index - 1];
  const after = chars[index + 1];
  if (JOINER.test(char)) {
    const inEmoji = char === "\u200D" && before !== undefined && EMOJI_PART.test(before) && after !== undefined && PICTOGRAPH.test(after);
    return inEmoji || (inJoiningScript(before) && inJoiningScript(after));
  }
  // One selector after a visible character picks its glyph (text or emoji style); a run of them carries hidden data.
  if (VARIATION_SELECTOR.test(char)) return before !== undefined && !isHidden(before) && !SPACE.test(before);
  if (TAG.test(char)) return flagTags;
  return false;
}

/** Where the tags after a black flag at `index` end when they spell a subdivision flag (and are kept); else `index`. */
function subdivisionFlagEnd(chars: readonly string[], index: number): number {
  let end = index + 1;
  // The cancel tag ends the flag: tags after it are not its own.
  while (end < chars.length && TAG.test(chars[end]!) && chars[end - 1] !== CANCEL_TAG) end++;
  return SUBDIVISION_TAGS.test(chars.slice(index + 1, end).join("")) ? end : index;
}

/** A visible marker for a hidden character, such as `⟨U+202E⟩`. */
export function hiddenCharacterMarker(char: string): string {
  return `⟨U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`;
}

/**
 * Outside text (a model's, a tool's) as it may be shown: every hidden character replaced by a visible
 * marker such as `⟨U+202E⟩`, so what a reader sees is what the text says. Joiners inside words of
 * scripts that need them, emoji sequences and a single variation selector stay as they are.
 */
export function showHiddenCharacters(text: string): string {
  if (!HIDDEN.test(text)) return text;
  const chars = Array.from(text);
  /** The tags before this index spell a subdivision flag; any other tag carries hidden text. */
  let flagTagsEnd = 0;
  let shown = "";
  for (let index = 0; index < chars.length; index++) {
    const char = chars[index]!;
    if (char === BLACK_FLAG) flagTagsEnd = subdivisionFlagEnd(chars, index);
    const kept = !isHidden(char) || isSpelling(chars, index, index < flagTagsEnd);
    shown += kept ? char : hiddenCharacterMarker(char);
  }
  return shown;
}
