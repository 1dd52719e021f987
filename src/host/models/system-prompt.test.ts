import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SYSTEM_PROMPT } from "./system-prompt";

describe("SYSTEM_PROMPT", () => {
  it("is shown verbatim in the README's Real models section", () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, "../../../README.md"), "utf8");
    const section = readme.slice(readme.indexOf("\n## Real models\n"));

    expect(section).toContain(`\`\`\`text\n${SYSTEM_PROMPT}\n\`\`\``);
  });

  it("tells the model when to ask, to prefer options, to use stable ids and how to mark a recommendation", () => {
    expect(SYSTEM_PROMPT).toContain("- a choice:");
    expect(SYSTEM_PROMPT).toContain("- a confirmation: before a risky, destructive or irreversible action, or before going with a default");
    expect(SYSTEM_PROMPT).toContain("- a missing fact:");
    expect(SYSTEM_PROMPT).toContain("Be concise");
    expect(SYSTEM_PROMPT).toContain("Prefer options");
    expect(SYSTEM_PROMPT).toContain("stable id");
    expect(SYSTEM_PROMPT).toContain('put it first and append " (Recommended)" to its label');
  });

  it("tells the model every result present_plan can return", () => {
    expect(SYSTEM_PROMPT).toContain('If it returns "approved", go ahead;');
    expect(SYSTEM_PROMPT).toContain('if it returns "approved. Note from the human: <note>", go ahead and take the note into account;');
    expect(SYSTEM_PROMPT).toContain("otherwise revise the plan using the feedback it returns.");
  });
});
