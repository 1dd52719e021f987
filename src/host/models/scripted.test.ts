import { afterEach, describe, expect, it, vi } from "vitest";
import { formatToolErrorText } from "../tools/registry";
import { chunk, createScriptedModel, INTERVIEW_ARGUMENTS, streamPauses, words } from "./scripted";
import type { HistoryItem, ModelEvent } from "./types";

async function run(history: HistoryItem[]): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of createScriptedModel().step({ history, tools: [], signal: new AbortController().signal })) events.push(event);
  return events;
}

function text(events: ModelEvent[]): string {
  return events.map((event) => (event.type === "text" ? event.delta : "")).join("");
}

function afterTool(user: string, name: string, result: string, isError = false): HistoryItem[] {
  return [
    { role: "user", text: user },
    { role: "assistant", text: "", toolCalls: [{ callId: "call_1", name, arguments: "{}" }] },
    { role: "tool", callId: "call_1", name, text: result, isError },
  ];
}

describe("scripted model", () => {
  it("is named scripted", () => {
    expect(createScriptedModel().name).toBe("scripted");
  });

  it("calls ask_user_question with the JSON after /ask exactly as written", async () => {
    const json = '{ "questions": [ {"id":"a","question":"A?"} ] }';
    expect(await run([{ role: "user", text: `/ask ${json}` }])).toEqual([
      { type: "tool-call", call: { callId: "call_1", name: "ask_user_question", arguments: json } },
    ]);
  });

  it("says the JSON is invalid instead of calling a tool", async () => {
    const events = await run([{ role: "user", text: "/ask {oops" }]);
    expect(events.every((event) => event.type === "text")).toBe(true);
    expect(text(events)).toMatch(/^Invalid JSON after \/ask: .+/);
  });

  it("replies Answers: with the tool result text, or Error: with the code of a tool error", async () => {
    const result = '{"answers":[{"id":"a","selected":["x"]}]}';
    expect(text(await run(afterTool("/ask {}", "ask_user_question", result)))).toBe(`Answers: ${result}`);
    const cancelled = formatToolErrorText({ name: "UserInteractionError", code: "ASK_CANCELLED", message: "the user cancelled ask_user_question" });
    expect(text(await run(afterTool("/ask {}", "ask_user_question", cancelled, true)))).toBe("Error: ASK_CANCELLED");
  });

  it("calls present_plan with the markdown after /plan and replies to approval or feedback", async () => {
    expect(await run([{ role: "user", text: "/plan # Plan\n- one" }])).toEqual([
      { type: "tool-call", call: { callId: "call_1", name: "present_plan", arguments: '{"plan":"# Plan\\n- one"}' } },
    ]);
    expect(text(await run(afterTool("/plan x", "present_plan", "approved")))).toBe("Plan approved.");
    expect(text(await run(afterTool("/plan x", "present_plan", "smaller steps")))).toBe("Keep planning: smaller steps");
    expect(text(await run(afterTool("/plan x", "present_plan", "approved. Note from the human: ship on Monday")))).toBe("Plan approved. Note: ship on Monday");
  });

  it("calls the tool named after /tool with the JSON after it exactly as written, and {} when there is none", async () => {
    const json = '{ "path": "a.txt" }';
    expect(await run([{ role: "user", text: `/tool mcp__files__read_file ${json}` }])).toEqual([
      { type: "tool-call", call: { callId: "call_1", name: "mcp__files__read_file", arguments: json } },
    ]);
    expect(await run([{ role: "user", text: "/tool mcp__files__list" }])).toEqual([
      { type: "tool-call", call: { callId: "call_1", name: "mcp__files__list", arguments: "{}" } },
    ]);
  });

  it("says the JSON after /tool is invalid instead of calling a tool", async () => {
    const events = await run([{ role: "user", text: "/tool mcp__files__list {oops" }]);
    expect(events.every((event) => event.type === "text")).toBe(true);
    expect(text(events)).toMatch(/^Invalid JSON after \/tool mcp__files__list: .+/);
  });

  it("replies Tool result: with the tool result text, or Error: with the code of a tool error", async () => {
    expect(text(await run(afterTool("/tool mcp__files__list {}", "mcp__files__list", "a.txt\nb.txt")))).toBe("Tool result: a.txt\nb.txt");
    const denied = formatToolErrorText({ name: "ToolError", code: "TOOL_DENIED", message: "the human denied this call: not now" });
    expect(text(await run(afterTool("/tool mcp__files__list {}", "mcp__files__list", denied, true)))).toBe("Error: TOOL_DENIED");
  });

  it("streams /echo text back in a few deltas", async () => {
    const events = await run([{ role: "user", text: "/echo one two three" }]);
    expect(events).toEqual(chunk("one two three").map((delta) => ({ type: "text", delta })));
    expect(events.length).toBe(3);
  });

  it("streams /stream text back a word at a time, the words joining back to the text exactly", async () => {
    const events = await run([{ role: "user", text: "/stream 0  one  two\nthree 👋🏽 " }]);
    expect(events).toEqual(["one  ", "two\n", "three ", "👋🏽 "].map((delta) => ({ type: "text", delta })));
    expect(text(await run(afterTool("/stream 5 x", "ask_user_question", "result")))).toBe("result");
  });

  it("says the pauses after /stream are invalid instead of streaming", async () => {
    for (const pauses of ["fast", "-1", "10001", "1.5", "100,", "100,,200"]) {
      expect(text(await run([{ role: "user", text: `/stream ${pauses} a b` }]))).toBe(`Invalid pauses after /stream: ${pauses} is not a comma-separated list of whole milliseconds from 0 to 10000`);
    }
    expect(streamPauses("0,10000,250")).toEqual([0, 10_000, 250]);
  });

  describe("pauses", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** Starts a step and records when each of its events arrives, on fake timers. */
    function timed(textOfUser: string, signal = new AbortController().signal) {
      vi.useFakeTimers();
      const arrivals: { at: number; delta: string }[] = [];
      const done = (async () => {
        for await (const event of createScriptedModel().step({ history: [{ role: "user", text: textOfUser }], tools: [], signal })) {
          if (event.type === "text") arrivals.push({ at: Date.now(), delta: event.delta });
        }
      })();
      return { arrivals, done, start: Date.now() };
    }

    it("pauses after each word of /stream, taking a list of pauses in turn and repeating it", async () => {
      const { arrivals, done, start } = timed("/stream 100,300 a b c d e");
      await vi.advanceTimersByTimeAsync(2000);
      await done;
      expect(arrivals.map(({ at, delta }) => [at - start, delta])).toEqual([
        [0, "a "],
        [100, "b "],
        [400, "c "],
        [500, "d "],
        [800, "e"],
      ]);
    });

    it("ends a pause of /stream at once when the turn is stopped", async () => {
      const controller = new AbortController();
      const { arrivals, done, start } = timed("/stream 10000 a b", controller.signal);
      await vi.advanceTimersByTimeAsync(50);
      controller.abort();
      await done;
      expect(arrivals.map(({ delta }) => delta)).toEqual(["a "]);
      expect(Date.now() - start).toBe(50);
    });
  });

  it("decides from the last user message, ignoring earlier turns", async () => {
    const history: HistoryItem[] = [...afterTool("/plan x", "present_plan", "approved"), { role: "assistant", text: "Plan approved.", toolCalls: [] }, { role: "user", text: "/echo hi" }];
    expect(text(await run(history))).toBe("hi");
  });

  it("starts the interview for anything else with one single-select with a recommendation, one multi-select and one optionless question", async () => {
    const events = await run([{ role: "user", text: "hello" }]);
    expect(events).toEqual([{ type: "tool-call", call: { callId: "call_1", name: "ask_user_question", arguments: INTERVIEW_ARGUMENTS } }]);
    const { questions } = JSON.parse(INTERVIEW_ARGUMENTS) as { questions: { options?: { label: string }[]; multi_select?: boolean }[] };
    expect(questions.map((question) => [question.options?.length ?? 0, question.multi_select ?? false])).toEqual([
      [3, false],
      [3, true],
      [0, false],
    ]);
    expect(questions[0]!.options![0]!.label).toMatch(/ \(Recommended\)$/);
  });

  it("splits words without losing or moving a character", () => {
    expect(words("")).toEqual([]);
    expect(words("   ")).toEqual(["   "]);
    expect(words("a")).toEqual(["a"]);
    for (const sample of ["  lead and trail  ", "tabs\tand\nlines", "流 👋🏽x  y"]) expect(words(sample).join("")).toBe(sample);
  });

  it("chunks text without splitting a code point", () => {
    expect(chunk("👋👋👋👋")).toEqual(["👋👋", "👋👋"]);
    expect(chunk("ab")).toEqual(["a", "b"]);
    expect(chunk("")).toEqual([]);
  });
});
