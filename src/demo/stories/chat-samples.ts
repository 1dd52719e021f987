import type { AgentsList } from "../../client/agents-api";
import { DEMO_MODEL } from "../../features/chat/host-facts";
import { planReviewQuestions } from "../../protocol/plan-review";
import type { AcpRowData, QuestionItem, SessionAgent } from "../../protocol/schemas";
import type { ChatScene, SceneChat, SceneRow } from "../chat-scene";
import { planMarkdown } from "./samples";

// The chats, transcripts and agent rows the chat group's stories share.

/** What the host says when it runs the scripted model with one MCP server ready. */
export const DEMO_MODEL_HEALTH: ChatScene["health"] = { model: DEMO_MODEL, mcp: [{ name: "notes", state: "ready", tools: 3 }] };
export const REAL_MODEL_HEALTH: ChatScene["health"] = { model: "openai:gpt-5" };

export const QWEN: SessionAgent = { kind: "acp-agent", name: "qwen", cwd: "/srv/code/parley", mode: "default" };
export const AGENTS: AgentsList = { agents: [{ name: "qwen", title: "Qwen Code", state: "ready" }], workspaces: ["/srv/code/parley"] };

const ESC = "\u001b";

export const qwenSession: AcpRowData = {
  type: "session",
  agent: "qwen",
  title: "Qwen Code",
  cwd: "/srv/code/parley",
  state: "ready",
  acpSessionId: "b7d1c2a0",
  mode: "default",
  modes: [
    { id: "default", name: "Default", description: "Asks before every edit and command." },
    { id: "plan", name: "Plan", description: "Reads and plans; changes nothing." },
    { id: "auto-edit", name: "Auto edit", description: "Edits files without asking; asks before commands." },
    { id: "yolo", name: "YOLO", description: "Never asks." },
  ],
  commands: [
    { name: "init", description: "Write a QWEN.md that describes this project" },
    { name: "compress", description: "Summarise the chat so far to free the context" },
    { name: "review", description: "Review the working tree's changes", hint: "path" },
  ],
  usage: { used: 18_432, size: 131_072 },
};

export const uploadPrompt: SceneRow = { role: "user", text: "Uploads fail when the Wi-Fi drops for a second. Make them retry once the socket is back." };

export const uploadThought: AcpRowData = {
  type: "thought",
  text: "The upload promise rejects as soon as the socket closes, but the mux reconnects within a second. Retrying once after the next hello should cover it without sending twice: the host dedupes by upload id.",
};

export const uploadPlan: AcpRowData = {
  type: "plan",
  entries: [
    { content: "Reproduce the failure with a socket that drops mid-upload", status: "completed" },
    { content: "Retry the upload once after the socket is back", status: "in_progress" },
    { content: "Add a test that drops the socket during an upload", status: "pending" },
    { content: "Run the client's tests", status: "pending" },
  ],
};

const UPLOAD_BEFORE = `export async function upload(file: File, mux: MuxConnection): Promise<UploadReceipt> {
  const id = crypto.randomUUID();
  const body = await file.arrayBuffer();
  return send(mux, { id, name: file.name, body });
}
`;

const UPLOAD_AFTER = `export async function upload(file: File, mux: MuxConnection): Promise<UploadReceipt> {
  const id = crypto.randomUUID();
  const body = await file.arrayBuffer();
  try {
    return await send(mux, { id, name: file.name, body });
  } catch (error) {
    if (!(error instanceof SocketClosedError)) throw error;
    // The host dedupes by id, so a retry after the socket is back never stores the file twice.
    await mux.online();
    return send(mux, { id, name: file.name, body });
  }
}
`;

export const uploadEdit: AcpRowData = {
  type: "tool",
  status: "completed",
  call: {
    toolCallId: "edit-upload",
    title: "Edit src/client/upload.ts",
    kind: "edit",
    locations: [{ path: "/srv/code/parley/src/client/upload.ts", line: 12 }],
    content: [{ type: "diff", path: "/srv/code/parley/src/client/upload.ts", oldText: UPLOAD_BEFORE, newText: UPLOAD_AFTER }],
  },
};

export const uploadTests: AcpRowData = {
  type: "tool",
  status: "in_progress",
  call: {
    toolCallId: "run-tests",
    title: "npm test -- src/client",
    kind: "execute",
    content: [
      {
        type: "text",
        text: [
          `${ESC}[1m> parley@0.9.0 test${ESC}[22m`,
          `${ESC}[1m> vitest run src/client${ESC}[22m`,
          "",
          ` ${ESC}[32m✓${ESC}[39m src/client/mux.test.ts ${ESC}[2m(14 tests)${ESC}[22m`,
          ` ${ESC}[32m✓${ESC}[39m src/client/api.test.ts ${ESC}[2m(9 tests)${ESC}[22m`,
          ` ${ESC}[31m✗${ESC}[39m src/client/upload.test.ts ${ESC}[2m(6 tests | 1 failed)${ESC}[22m`,
          `   ${ESC}[31m× retries the upload once the socket is back${ESC}[39m`,
          `     ${ESC}[33mAssertionError${ESC}[39m: expected 2 sends, got 1`,
          ` ${ESC}[33m…${ESC}[39m src/client/session-engine.test.ts`,
        ].join("\n"),
      },
    ],
  },
};

/** An ACP chat Qwen Code runs: its session row, the prompt, then the rows a story shows. */
export function qwenChat(rows: SceneRow[], state: SceneChat["state"] = "idle"): SceneChat {
  return { id: "chat-upload", title: "Retry uploads after a dropped socket", at: { today: 6 }, agent: QWEN, state, rows: [{ role: "tool", acp: qwenSession }, uploadPrompt, ...rows] };
}

const shipDay: QuestionItem = {
  id: "ship-day",
  header: "Release",
  question: "Which day should 2.4 ship?",
  options: [{ label: "Tuesday (Recommended)", description: "After the Monday freeze; a full week to watch it." }, { label: "Thursday" }, { label: "Next Monday" }],
};

/** The chats of the sidebar stories: two waiting for an answer, some of today (one an ACP agent's), yesterday's, and older ones. */
export const LISTED_CHATS: SceneChat[] = [
  { id: "chat-release", title: "Release checklist for 2.4", at: { today: 3 }, waiting: [shipDay] },
  { id: "chat-postgres", title: "Move sessions to PostgreSQL", at: { today: 25 }, waiting: planReviewQuestions(planMarkdown) },
  {
    id: "chat-dark-mode",
    title: "Dark mode for the settings page",
    at: { today: 4 },
    rows: [
      { role: "user", text: "Add a dark mode to the settings page. It should follow the system unless I pick one." },
      {
        role: "assistant",
        text: "Done. The settings page now has a **Theme** choice:\n\n- **System** (the default) follows `prefers-color-scheme`\n- **Light** and **Dark** stay as picked, across reloads\n\nThe colours come from the same tokens as the chat, so both themes keep their contrast.",
      },
    ],
  },
  { ...qwenChat([{ role: "assistant", text: "The upload now retries once the socket is back; the new test passes." }]), at: { today: 40 } },
  { id: "chat-flaky", title: "Why is the upload test flaky?", at: { today: 95 } },
  { id: "chat-onboarding", title: "Onboarding copy review", at: { yesterdayAt: 17 } },
  { id: "chat-claude", title: "Claude Code · 09:05", at: { yesterdayAt: 9 }, agent: { kind: "mcp-client", name: "Claude Code" } },
  { id: "chat-bench", title: "Bench: the round-trip floor", at: { daysAgo: 3 } },
  { id: "chat-icons", title: "Icon set for the installed app", at: { daysAgo: 12 } },
];

const toneAnswers = [{ id: "tone", selected: ["Plain (Recommended)"] }];

/**
 * A chat of Parley's agent whose host stopped four times, as a restart or a cluster's adoption leaves its tool rows
 * (docs/protocol.md, tool-interrupted): a question answered before the agent read it, a write the human denied, one
 * they allowed that may not have run, and a question nobody answered.
 */
export const STOPPED_HOST_CHAT: SceneChat = {
  id: "chat-notes",
  title: "Publish the 2.4 release notes",
  at: { today: 12 },
  rows: [
    { role: "user", text: "Tidy the 2.4 release notes and publish them to the notes server." },
    {
      role: "tool",
      interrupted: true,
      call: {
        callId: "call-tone",
        name: "ask_user_question",
        args: { questions: [{ id: "tone", question: "Which tone should the notes take?", options: [{ label: "Plain (Recommended)" }, { label: "Playful" }] }] },
        status: "ok",
        result: JSON.stringify({ answers: toneAnswers }),
        outcome: { kind: "answered", answers: toneAnswers },
      },
    },
    {
      role: "tool",
      interrupted: true,
      call: {
        callId: "call-draft",
        name: "mcp__notes__write_note",
        args: { name: "release-2.4-draft", text: "2.4: uploads retry after a dropped socket." },
        status: "error",
        mcp: { server: "notes", tool: "write_note", approval: "denied", reason: "Not before the review on Thursday" },
        error: { name: "ToolError", code: "TOOL_DENIED", message: "the human denied this call: Not before the review on Thursday" },
      },
    },
    {
      role: "tool",
      interrupted: true,
      call: {
        callId: "call-publish",
        name: "mcp__notes__write_note",
        args: { name: "release-2.4", text: "2.4: uploads retry after a dropped socket." },
        status: "stopped",
        mcp: { server: "notes", tool: "write_note", approval: "allowed-once" },
        error: { name: "ToolError", code: "TOOL_INTERRUPTED", message: "the human allowed this call, but the host running it stopped before it finished: it may not have run, or not to its end" },
      },
    },
    {
      role: "tool",
      interrupted: true,
      call: {
        callId: "call-announce",
        name: "ask_user_question",
        args: { questions: [{ id: "announce", question: "Announce the release in the team channel?", options: [{ label: "Yes" }, { label: "No" }] }] },
        status: "stopped",
        error: { name: "UserInteractionError", code: "ASK_ABORTED", message: "ask_user_question was aborted before the user answered" },
      },
    },
  ],
};
