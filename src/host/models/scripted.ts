import { parsePlanReviewResult } from "../../protocol/plan-review";
import { decodeToolErrorCode } from "../../protocol/errors";
import type { HistoryItem, Model, ModelEvent, ModelRequest } from "./types";

/** The built-in interview: a recommended single-select, a multi-select and an optionless question. */
export const INTERVIEW_ARGUMENTS = JSON.stringify({
  questions: [
    {
      id: "goal",
      header: "Goal",
      question: "What would you like to build today?",
      options: [
        { label: "A web app (Recommended)", description: "A browser front end with a small API behind it." },
        { label: "A command-line tool", description: "A program you run in the terminal." },
        { label: "A library", description: "Reusable code for other projects." },
      ],
    },
    {
      id: "priorities",
      header: "Priorities",
      question: "Which qualities matter most to you?",
      multi_select: true,
      options: [
        { label: "Speed", description: "Fast to load and to use." },
        { label: "Accessibility", description: "Works with a keyboard and a screen reader." },
        { label: "Test coverage", description: "Every behaviour pinned by a test." },
      ],
    },
    { id: "details", header: "Details", question: "Anything else I should know before I start?" },
  ],
});

const INTERVIEW_TOPICS: ReadonlyMap<string, string> = new Map([
  ["goal", "Goal"],
  ["priorities", "Priorities"],
  ["details", "Details"],
]);

type Command =
  | { kind: "ask" | "plan" | "echo"; argument: string }
  | { kind: "tool"; name: string; argument: string }
  | { kind: "stream"; pause: string; argument: string }
  | { kind: "interview" };

/** The longest pause `/stream` takes after a word, as for PARLEY_SCRIPTED_CHUNK_MS. */
export const MAX_STREAM_PAUSE_MS = 10_000;

function parseCommand(text: string): Command {
  const tool = /^\/tool\s+(\S+)(?:\s+([\s\S]*))?$/.exec(text);
  if (tool) return { kind: "tool", name: tool[1]!, argument: tool[2]?.trim() || "{}" };
  const stream = /^\/stream\s+(\S+)(?:\s+([\s\S]*))?$/.exec(text);
  if (stream) return { kind: "stream", pause: stream[1]!, argument: stream[2] ?? "" };
  const match = /^\/(ask|plan|echo)(?:\s+([\s\S]*))?$/.exec(text);
  if (!match) return { kind: "interview" };
  return { kind: match[1] as "ask" | "plan" | "echo", argument: match[2] ?? "" };
}

/** Splits text into at most `parts` pieces without breaking a code point. */
export function chunk(text: string, parts = 3): string[] {
  const points = [...text];
  if (points.length === 0) return [];
  const size = Math.ceil(points.length / Math.min(parts, points.length));
  const pieces: string[] = [];
  for (let start = 0; start < points.length; start += size) pieces.push(points.slice(start, start + size).join(""));
  return pieces;
}

/** Splits text into words, each with the whitespace before and after it, so the pieces join back to the text exactly. */
export function words(text: string): string[] {
  return text.match(/\s*\S+\s*/gu) ?? (text === "" ? [] : [text]);
}

/** The pauses of `/stream <ms>[,<ms>…]`: whole numbers of milliseconds from 0 to MAX_STREAM_PAUSE_MS; null when one is not. */
export function streamPauses(raw: string): number[] | null {
  const pauses = raw.split(",").map((part) => (/^\d{1,5}$/.test(part) ? Number(part) : NaN));
  return pauses.every((ms) => ms <= MAX_STREAM_PAUSE_MS) ? pauses : null;
}

function summarise(resultText: string): string {
  const lines = ["Thanks! Here is what I heard:"];
  const { answers } = JSON.parse(resultText) as { answers: { id: string; selected: string[]; custom?: string }[] };
  for (const answer of answers) {
    const parts = [...answer.selected, ...(answer.custom === undefined ? [] : [answer.custom])];
    lines.push(`- ${INTERVIEW_TOPICS.get(answer.id) ?? answer.id}: ${parts.length ? parts.join(", ") : "(skipped)"}`);
  }
  lines.push("", "This is the scripted model. Try /ask <json>, /plan <markdown> or /echo <text>.");
  return lines.join("\n");
}

function planReply(result: ReturnType<typeof parsePlanReviewResult>): string {
  if (!result.approved) return `Keep planning: ${result.feedback}`;
  return result.note === null ? "Plan approved." : `Plan approved. Note: ${result.note}`;
}

function reply(command: Command, result: Extract<HistoryItem, { role: "tool" }>): string {
  if (result.isError) return `Error: ${decodeToolErrorCode(result.text) ?? "TOOL_FAILED"}`;
  switch (command.kind) {
    case "ask":
      return `Answers: ${result.text}`;
    case "plan":
      return planReply(parsePlanReviewResult(result.text));
    case "interview":
      return summarise(result.text);
    case "echo":
    case "stream":
      return result.text;
    case "tool":
      return `Tool result: ${result.text}`;
    default:
      return command satisfies never;
  }
}

/** Waits `ms`, or less when the turn is stopped meanwhile, so Stop never waits out a long pause. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    let cancel = () => {};
    const done = () => {
      cancel();
      signal.removeEventListener("abort", done);
      resolve();
    };
    if (ms > 0) {
      const timer = setTimeout(done, ms);
      cancel = () => clearTimeout(timer);
    } else {
      const immediate = setImmediate(done);
      cancel = () => clearImmediate(immediate);
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

export interface ScriptedModelOptions {
  /** A pause between streamed chunks (PARLEY_SCRIPTED_CHUNK_MS), to watch a reply stream in; 0 streams at once. */
  chunkDelayMs?: number;
}

/** The deterministic model of docs/protocol.md; it keeps no state and decides from the history alone. */
export function createScriptedModel(options: ScriptedModelOptions = {}): Model {
  const delay = options.chunkDelayMs ?? 0;
  async function* stream(text: string, signal: AbortSignal, pieces = chunk(text), pauses = [delay]): AsyncGenerator<ModelEvent> {
    for (const [index, piece] of pieces.entries()) {
      if (signal.aborted) return;
      yield { type: "text", delta: piece };
      await pause(pauses[index % pauses.length]!, signal);
    }
  }

  return {
    name: "scripted",
    async *step({ history, signal }: ModelRequest): AsyncGenerator<ModelEvent> {
      const userIndex = history.findLastIndex((item) => item.role === "user");
      const user = history[userIndex];
      if (!user || user.role !== "user") return;
      const command = parseCommand(user.text);
      const results = history.slice(userIndex + 1).filter((item) => item.role === "tool");
      const last = results.at(-1);
      if (last) {
        yield* stream(reply(command, last), signal);
        return;
      }
      const callId = `call_${history.length}`;
      switch (command.kind) {
        case "ask":
          try {
            JSON.parse(command.argument);
          } catch (error) {
            yield* stream(`Invalid JSON after /ask: ${(error as Error).message}`, signal);
            return;
          }
          yield { type: "tool-call", call: { callId, name: "ask_user_question", arguments: command.argument } };
          return;
        case "plan":
          yield { type: "tool-call", call: { callId, name: "present_plan", arguments: JSON.stringify({ plan: command.argument }) } };
          return;
        case "tool":
          try {
            JSON.parse(command.argument);
          } catch (error) {
            yield* stream(`Invalid JSON after /tool ${command.name}: ${(error as Error).message}`, signal);
            return;
          }
          yield { type: "tool-call", call: { callId, name: command.name, arguments: command.argument } };
          return;
        case "echo":
          yield* stream(command.argument, signal);
          return;
        case "stream": {
          const pauses = streamPauses(command.pause);
          if (pauses === null) yield* stream(`Invalid pauses after /stream: ${command.pause} is not a comma-separated list of whole milliseconds from 0 to ${MAX_STREAM_PAUSE_MS}`, signal);
          else yield* stream(command.argument, signal, words(command.argument), pauses);
          return;
        }
        case "interview":
          yield { type: "tool-call", call: { callId, name: "ask_user_question", arguments: INTERVIEW_ARGUMENTS } };
          return;
        default:
          return command satisfies never;
      }
    },
  };
}
