import type { Catalog } from "../i18n/locale";

type ThemeKey = "theme" | "light" | "dark" | "system";

/** Copy for the theme switch. */
export const themeCopy: Catalog<ThemeKey> = {
  en: { theme: "Theme", light: "Light", dark: "Dark", system: "System" },
  "zh-CN": { theme: "主题", light: "浅色", dark: "深色", system: "跟随系统" },
};
