import { englishFirst } from "../i18n/locale";

export type ThemeKey = "theme" | "light" | "dark" | "system";

/** Copy for the theme switch; its Chinese is in `theme-copy-zh.ts`. */
export const themeCopy = englishFirst<ThemeKey>({ theme: "Theme", light: "Light", dark: "Dark", system: "System" });
