import type { MarkdownKey } from "./markdown-copy";

/** The Chinese of the markdown renderer and the copy button (`markdownCopy`), which `src/app/zh-CN.ts` fills in when the locale loads. */
export const markdownCopyZh: Record<MarkdownKey, string> = {
  copy: "复制",
  copied: "已复制",
  copyFailed: "复制失败：请选中文本后按 Ctrl+C",
  copyCode: "复制代码",
  taskDone: "已完成",
  taskOpen: "未完成",
};
