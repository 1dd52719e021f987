import { describe, expect, it } from "vitest";
import { completeCommand, matchCommands, mergeCommands, type ComposerCommand } from "./commands";

const ask: ComposerCommand = { name: "/ask", usage: "<json>", description: "Ask questions" };
const echo: ComposerCommand = { name: "/echo", usage: "<text>", description: "Say it back" };
const explain: ComposerCommand = { name: "/explain", usage: "<file>", description: "An agent's own command" };

describe("matchCommands", () => {
  it("offers every command for a lone slash", () => {
    expect(matchCommands("/", [ask, echo, explain])).toEqual([ask, echo, explain]);
  });

  it("narrows to the commands that start with what is typed, ignoring case", () => {
    expect(matchCommands("/E", [ask, echo, explain])).toEqual([echo, explain]);
  });

  it("offers nothing once arguments are typed or the text is not a command", () => {
    expect(matchCommands("/ask ", [ask])).toEqual([]);
    expect(matchCommands("hello /ask", [ask])).toEqual([]);
    expect(matchCommands("", [ask])).toEqual([]);
  });
});

describe("completeCommand and mergeCommands", () => {
  it("completes to the name and a space", () => {
    expect(completeCommand(ask)).toBe("/ask ");
  });

  it("keeps the first command of a name when lists overlap", () => {
    expect(mergeCommands([ask], [{ ...ask, description: "other" }, explain])).toEqual([ask, explain]);
  });
});
