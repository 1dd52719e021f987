// Every catalogue in both languages from the start, so a test shows Chinese at once; the app loads it with the locale.
import "../app/zh-CN";
