import type { Message } from "../../protocol/schemas";

/** How the session's last turn ended, read from its rows after the last user message. */
export type TurnEnding = "replied" | "failed" | "interrupted" | "stopped-at-tool" | "no-reply";


/** The last user message and how the turn it started ended; null when there is no user message. */
export function lastTurn(messages: readonly Message[]): { userMessageId: string; userText: string; ending: TurnEnding } | null {
  let last: Message | undefined;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === "user") return { userMessageId: message.id, userText: message.text ?? "", ending: endingOf(last) };
    last ??= message;
  }
  return null;
}

function endingOf(last: Message | undefined): TurnEnding {
  if (!last) return "no-reply";
  // A row the host lost (a crash or a kill mid-turn) was cut off, whatever its kind: nobody stopped it.
  if (last.interrupted) return "interrupted";
  if (last.role !== "tool" || !last.tool) return last.failure ? "failed" : "replied";
  if (last.tool.status === "stopped") return "stopped-at-tool";
  // A coding agent's row that failed ends nothing: the agent ended its turn itself (a call that failed because of a Stop
  // is stored stopped), and its session row can fail long after its turn (a crash while idle). Parley's tool rows do.
  return last.tool.status === "error" && last.tool.acp === undefined ? "stopped-at-tool" : "replied";
}
