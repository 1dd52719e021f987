import type { Catalog } from "../i18n/locale";

type MarkdownKey = "copy" | "copied" | "copyFailed" | "copyCode" | "taskDone" | "taskOpen";

/** Copy of the markdown renderer and the copy button. */
export const markdownCopy: Catalog<MarkdownKey> = {
  en: {
    copy: "Copy",
    copied: "Copied",
    copyFailed: "Copy failed: select the text and press Ctrl+C",
    copyCode: "Copy code",
    taskDone: "Done",
    taskOpen: "Not done",
  },
  "zh-CN": {
    copy: "复制",
    copied: "已复制",
    copyFailed: "复制失败：请选中文本后按 Ctrl+C",
    copyCode: "复制代码",
    taskDone: "已完成",
    taskOpen: "未完成",
  },
};
