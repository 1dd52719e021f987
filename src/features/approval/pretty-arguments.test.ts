import { describe, expect, it } from "vitest";
import { isEmptyArguments, prettyArguments } from "./pretty-arguments";

describe("prettyArguments", () => {
  it("indents JSON by two spaces and keeps every value, however long", () => {
    const long = "x".repeat(5000);
    expect(prettyArguments(`{"path":"a.txt","lines":[1,2],"text":"${long}"}`)).toBe(`{\n  "path": "a.txt",\n  "lines": [\n    1,\n    2\n  ],\n  "text": "${long}"\n}`);
  });

  it("shows text that is not JSON exactly as sent", () => {
    expect(prettyArguments("{oops")).toBe("{oops");
  });

  it("calls empty text, {} and null empty, and anything else not", () => {
    expect([" ", "{}", "null", '{"a":1}', "[]"].map(isEmptyArguments)).toEqual([true, true, true, false, false]);
  });
});
