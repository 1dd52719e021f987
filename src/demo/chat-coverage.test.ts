import { describe, expect, it } from "vitest";
import { acpCommands, latestAcpSession } from "../features/chat/acp-session";
import { DEMO_MODEL } from "../features/chat/host-facts";
import { groupSessions } from "../features/sessions/groups";
import type { AcpRowData, Message } from "../protocol/schemas";
import { sceneState, type ChatScene, type SceneState } from "./chat-scene";
import { STORIES, type ChatStory } from "./stories";

/** The states of the chat around the slot that the panel-and-chat and ACP issues ask a story for. */
type ChatState =
  | "first screen, demo model"
  | "first screen, real model"
  | "/ menu, demo model"
  | "/ menu, completing"
  | "/ menu, ACP agent"
  | "sidebar groups, waiting pinned"
  | "row … menu"
  | "phone drawer"
  | "ACP tool call with a diff"
  | "ACP terminal output in colour"
  | "ACP plan"
  | "ACP thought"
  | "ACP mode in the header"
  | "tool rows a stopped host left";

const ESC = "\u001b";

/** What a scene shows, read from its data with the app's own rules (grouping, the agent's commands). */
interface Shown {
  scene: ChatScene;
  /** When the story opens. */
  now: Date;
  state: SceneState;
  /** The open chat's transcript. */
  rows: Message[];
  acp: AcpRowData[];
}

function shownOf(story: ChatStory, now: Date): Shown {
  const state = sceneState(story.scene, now);
  const rows = state.messages.filter((message) => message.sessionId === story.scene.open);
  return { scene: story.scene, now, state, rows, acp: rows.flatMap((row) => (row.tool?.acp ? [row.tool.acp] : [])) };
}

const demoModel = ({ scene }: Shown) => scene.health.model === DEMO_MODEL;
const readyServer = ({ scene }: Shown) => (scene.health.mcp ?? []).some((server) => server.state === "ready" && server.tools > 0);
const firstScreen = ({ scene }: Shown) => scene.open === null && scene.draft === undefined;
const toolCalls = ({ acp }: Shown) => acp.flatMap((data) => (data.type === "tool" ? [data.call] : []));

const STATES: Record<ChatState, (shown: Shown) => boolean> = {
  "first screen, demo model": (shown) => firstScreen(shown) && demoModel(shown) && readyServer(shown),
  "first screen, real model": (shown) => firstScreen(shown) && !demoModel(shown),
  "/ menu, demo model": (shown) => shown.scene.draft === "/" && shown.scene.open === null && demoModel(shown) && readyServer(shown),
  "/ menu, completing": (shown) => /^\/\w+$/.test(shown.scene.draft ?? "") && demoModel(shown),
  "/ menu, ACP agent": (shown) => shown.scene.draft === "/" && acpCommands(latestAcpSession(shown.rows)).length > 0,
  "sidebar groups, waiting pinned": ({ state, now }) => {
    const waiting = new Set(state.requests.map((request) => request.sessionId));
    return groupSessions(state.sessions, waiting, now).map((group) => group.key).join() === "waiting,today,yesterday,earlier";
  },
  "row … menu": ({ scene }) => scene.chats.some((chat) => chat.id === scene.rowMenu),
  "phone drawer": ({ scene }) => scene.drawer === "open",
  "ACP tool call with a diff": (shown) => toolCalls(shown).some((call) => call.content?.some((part) => part.type === "diff")),
  "ACP terminal output in colour": (shown) => toolCalls(shown).some((call) => call.kind === "execute" && call.content?.some((part) => part.type === "text" && part.text.includes(ESC))),
  "ACP plan": ({ acp }) => acp.some((data) => data.type === "plan" && data.entries.length > 1),
  "ACP thought": ({ acp }) => acp.some((data) => data.type === "thought"),
  "ACP mode in the header": ({ rows }) => (latestAcpSession(rows)?.modes?.length ?? 0) > 1,
  "tool rows a stopped host left": ({ rows }) => {
    const stopped = rows.filter((row) => row.interrupted === true && row.tool !== undefined).map((row) => row.tool!.error?.code ?? row.tool!.status);
    return ["ok", "TOOL_DENIED", "TOOL_INTERRUPTED", "ASK_ABORTED"].every((end) => stopped.includes(end));
  },
};

const NOON = new Date(2026, 2, 10, 12, 0);
const CHAT_STORIES = STORIES.filter((story): story is ChatStory => story.scene !== undefined);

describe("demo coverage of the chat around the slot", () => {
  it("has a story for every state of the first screen, the / menu, the sidebar, the drawer and an ACP agent's rows", () => {
    const shown = CHAT_STORIES.map((story) => shownOf(story, NOON));
    for (const [state, shows] of Object.entries(STATES)) expect(shown.some(shows), `a story showing ${state}`).toBe(true);
  });

  it("gives every chat story one of those states to show", () => {
    for (const story of CHAT_STORIES) expect(Object.values(STATES).some((shows) => shows(shownOf(story, NOON))), story.id).toBe(true);
  });

  it("keeps the sidebar's four groups at any time of day: just after midnight, at noon, just before midnight", () => {
    const groups = STATES["sidebar groups, waiting pinned"];
    for (const now of [new Date(2026, 2, 10, 0, 1), NOON, new Date(2026, 2, 10, 23, 59)]) {
      expect(CHAT_STORIES.some((story) => groups(shownOf(story, now))), now.toString()).toBe(true);
    }
  });

  it("lists the chat group's stories in the demo and opens none of them on a chat the scene lacks", () => {
    expect(CHAT_STORIES.length).toBeGreaterThan(0);
    for (const { id, scene } of CHAT_STORIES) {
      if (scene.open !== null) expect(scene.chats.map((chat) => chat.id), id).toContain(scene.open);
    }
  });
});
