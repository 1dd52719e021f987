import type { ThemeKey } from "./theme-copy";

/** The Chinese of the theme switch (`themeCopy`), which `src/app/zh-CN.ts` fills in when the locale loads. */
export const themeCopyZh: Record<ThemeKey, string> = { theme: "主题", light: "浅色", dark: "深色", system: "跟随系统" };
