import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isLocaleFilled, type Catalog } from "../i18n/locale";
import "./zh-CN";

const SRC = path.resolve(import.meta.dirname, "..");

/** Every source file that makes a catalogue with `englishFirst`. */
function englishFirstModules(): string[] {
  const files = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));
  return files.filter((file) => file !== path.join("i18n", "locale.ts") && readFileSync(path.join(SRC, file), "utf8").includes("englishFirst<")).sort();
}

function isCatalog(value: unknown): value is Catalog {
  return typeof value === "object" && value !== null && "en" in value && "zh-CN" in value;
}

describe("the Chinese of the first screen and the question panel (app/zh-CN.ts)", () => {
  it("fills every englishFirst catalogue with exactly its English keys, none blank", async () => {
    const modules = englishFirstModules();
    expect(modules).toEqual([
      path.join("app", "copy.ts"),
      path.join("features", "attention", "copy.ts"),
      path.join("features", "chat", "copy.ts"),
      path.join("features", "mcp", "copy.ts"),
      path.join("features", "question", "copy.ts"),
      path.join("features", "sessions", "copy.ts"),
      path.join("ui", "markdown-copy.ts"),
      path.join("ui", "theme-copy.ts"),
    ]);
    for (const file of modules) {
      const catalogs = Object.values((await import(path.join(SRC, file))) as Record<string, unknown>).filter(isCatalog);
      expect(catalogs, file).toHaveLength(1);
      const [catalog] = catalogs as [Catalog];
      expect(Object.keys(catalog["zh-CN"]).sort(), file).toEqual(Object.keys(catalog.en).sort());
      expect(Object.entries(catalog["zh-CN"]).filter(([, text]) => text.trim() === ""), file).toEqual([]);
    }
    expect(isLocaleFilled("zh-CN")).toBe(true);
  });
});
