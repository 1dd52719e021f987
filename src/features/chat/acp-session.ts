import type { AcpRowData, Message } from "../../protocol/schemas";
import { selectTranscript } from "../../store/selectors";
import type { SessionData } from "../../store/state";
import type { ComposerCommand } from "./commands";

/** The data of a chat's agent session row (docs/protocol.md, acp-rows). */
export type AcpSessionData = Extract<AcpRowData, { type: "session" }>;

const latestOf = new WeakMap<readonly Message[], AcpSessionData | null>();

/** The newest agent session row of a transcript (a restart writes a new one), or null for a chat no ACP agent runs. */
export function latestAcpSession(messages: readonly Message[]): AcpSessionData | null {
  const known = latestOf.get(messages);
  if (known !== undefined) return known;
  let found: AcpSessionData | null = null;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const data = messages[index]!.tool?.acp;
    if (data?.type === "session") {
      found = data;
      break;
    }
  }
  latestOf.set(messages, found);
  return found;
}

const selectors = new Map<string, (state: SessionData) => AcpSessionData | null>();

/** The chat's newest agent session row, the same object until that row changes. */
export function selectAcpSession(sessionId: string): (state: SessionData) => AcpSessionData | null {
  let selector = selectors.get(sessionId);
  if (!selector) {
    const transcript = selectTranscript(sessionId);
    selector = (state) => latestAcpSession(transcript(state));
    selectors.set(sessionId, selector);
  }
  return selector;
}

const NO_COMMANDS: readonly ComposerCommand[] = [];
const commandsOf = new WeakMap<AcpSessionData, readonly ComposerCommand[]>();

/** The agent's own `/` commands for the composer's menu, as the agent describes them. */
export function acpCommands(data: AcpSessionData | null): readonly ComposerCommand[] {
  if (!data?.commands || data.commands.length === 0) return NO_COMMANDS;
  let commands = commandsOf.get(data);
  if (!commands) {
    commands = data.commands.map((command) => ({ name: `/${command.name}`, usage: command.hint ? `<${command.hint}>` : "", description: command.description ?? "" }));
    commandsOf.set(data, commands);
  }
  return commands;
}
