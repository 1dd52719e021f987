import { describe, expect, it } from "vitest";
import { DEFAULT_TITLE, titleFrom, titleFromToolArgs } from "./titles";

describe("titleFrom", () => {
  it("[titles-auto] drops a leading /echo so the chat is titled by its words", () => {
    expect(titleFrom("/echo Dark mode for the settings page")).toBe("Dark mode for the settings page");
  });

  it("drops /stream and its pauses", () => {
    expect(titleFrom("/stream 40,80 Slow words arrive")).toBe("Slow words arrive");
  });

  it("takes the next line when the command stands alone on the first", () => {
    expect(titleFrom("/echo\n\nSecond line is the title")).toBe("Second line is the title");
  });

  it("keeps a word that only starts like a command", () => {
    expect(titleFrom("/echoes of the past")).toBe("/echoes of the past");
  });

  it("is New chat when the command has no words", () => {
    expect(titleFrom("/echo   ")).toBe(DEFAULT_TITLE);
  });

  it("cuts a long line to 60 characters with an ellipsis", () => {
    const title = titleFrom(`/echo ${"word ".repeat(30)}`);
    expect([...title]).toHaveLength(60);
    expect(title.endsWith("…")).toBe(true);
  });
});

describe("titleFromToolArgs", () => {
  it("takes the first question's header, never the JSON", () => {
    expect(titleFromToolArgs("ask_user_question", { questions: [{ header: "Database", question: "Which?" }] })).toBe("Database");
  });

  it("names an MCP server's tool and its server, so a chat opened with /tool is not left as New chat", () => {
    expect(titleFromToolArgs("mcp__notes__add_note", { text: "x" })).toBe("add_note · notes");
    expect(titleFromToolArgs("no_such_tool", {})).toBeNull();
  });

  it("takes a plan's first line without its markdown", () => {
    expect(titleFromToolArgs("present_plan", { plan: "## 1. Move the database\n2. Then the app" })).toBe("Move the database");
    // Digits and signs of the words themselves stay.
    const firstLine = (plan: string) => titleFromToolArgs("present_plan", { plan });
    expect(["3D printer setup", "2025 roadmap", "> - 1) Step one", "#\n\n-3 °C alarm", "*Emphasis*"].map(firstLine)).toEqual(["3D printer setup", "2025 roadmap", "Step one", "-3 °C alarm", "*Emphasis*"]);
  });
});
