import { englishFirst } from "../i18n/locale";

export type MarkdownKey = "copy" | "copied" | "copyFailed" | "copyCode" | "taskDone" | "taskOpen";

/** Copy of the markdown renderer and the copy button; its Chinese is in `markdown-copy-zh.ts`. */
export const markdownCopy = englishFirst<MarkdownKey>({
  copy: "Copy",
  copied: "Copied",
  copyFailed: "Copy failed: select the text and press Ctrl+C",
  copyCode: "Copy code",
  taskDone: "Done",
  taskOpen: "Not done",
});
