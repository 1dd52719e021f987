import type { LoadTexts } from "../i18n/i18n";

/** The app's `LoadTexts`: Chinese, the one locale besides English, has its first-screen texts in `zh-CN.ts`, a chunk of its own. */
export const loadLocaleTexts: LoadTexts = () => import("./zh-CN");
