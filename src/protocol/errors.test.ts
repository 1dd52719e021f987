import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decodeToolErrorCode, encodeToolError, HTTP_ERROR_MEANINGS, TOOL_ERROR_MEANINGS, TURN_FAILURE_MEANINGS } from "./errors";
import { ErrorCode, ToolErrorCode } from "./schemas";

const PROTOCOL = readFileSync(path.resolve("docs/protocol.md"), "utf8");

/** The codes a docs/protocol.md table lists under the `### <heading>` that starts with `heading`. */
function tableCodes(heading: string): string[] {
  const start = PROTOCOL.split("\n").findIndex((line) => line.startsWith(`### ${heading}`));
  if (start < 0) return [];
  const codes: string[] = [];
  for (const line of PROTOCOL.split("\n").slice(start + 1)) {
    if (line.startsWith("#")) break;
    const cell = /^\| `([A-Z_]+)` \|/.exec(line);
    if (cell) codes.push(cell[1]!);
  }
  return codes;
}

/** Every test title in the repository's test files (`it("…"`, `test("…"`, `describe("…"`, template titles included). */
function testTitles(): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === "node_modules" || name.startsWith(".")) continue;
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(test|spec)\.tsx?$/.test(name)) files.push(full);
    }
  };
  for (const root of ["src", "e2e", "bench"]) walk(path.resolve(root));
  return files.map((file) => readFileSync(file, "utf8")).join("\n");
}

describe("docs/protocol.md cannot drift from the code [error-codes]", () => {
  it("lists every tool error, HTTP error and turn failure code in its table, and no code the code lacks", () => {
    expect([tableCodes("Tool errors"), tableCodes("HTTP errors"), tableCodes("Turn failures")]).toEqual([
      Object.keys(TOOL_ERROR_MEANINGS),
      Object.keys(HTTP_ERROR_MEANINGS),
      Object.keys(TURN_FAILURE_MEANINGS),
    ]);
    expect([Object.keys(TOOL_ERROR_MEANINGS).sort(), Object.keys(HTTP_ERROR_MEANINGS).sort()]).toEqual([[...ToolErrorCode.options].sort(), [...ErrorCode.options].sort()]);
  });

  it("names every rule id of the protocol in the title of at least one test", () => {
    const rules = [...new Set([...PROTOCOL.matchAll(/`\[([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\]`|\[([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\](?!\()/g)].map((match) => match[1] ?? match[2]!))];
    const titles = testTitles();
    const titled = /(?:\bit|\btest|\bdescribe)(?:\.each\([^)]*\))?\(\s*[`"']([^`"'\n]*)[`"']/g;
    // A title names a rule as `[rule-id]`, or as the rule id itself (`respond-shape: …`, `rule answer-input`).
    const named = new Set([...titles.matchAll(titled)].flatMap((match) => [...match[1]!.matchAll(/[a-z0-9]+(?:-[a-z0-9]+)+/g)].map((rule) => rule[0])));
    expect(rules.filter((rule) => !named.has(rule))).toEqual([]);
  });
});

describe("the tool-error text format [tool-error-text]", () => {
  it("encodes a tool error as its message and a {name, code} line, and reads the code back", () => {
    const text = encodeToolError({ name: "UserInteractionError", code: "ASK_ABORTED", message: "gone\nfor good" });
    expect([text, decodeToolErrorCode(text), decodeToolErrorCode("Error: plain"), decodeToolErrorCode("")]).toEqual([
      'Error: gone\nfor good\n{"name":"UserInteractionError","code":"ASK_ABORTED"}',
      "ASK_ABORTED",
      null,
      null,
    ]);
  });
});
