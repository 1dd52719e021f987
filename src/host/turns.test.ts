import { afterEach, describe, expect, it } from "vitest";
import { planReviewQuestions } from "../protocol/plan-review";
import type { AnswerItem, Message, QuestionRequestedFrame, Session } from "../protocol/schemas";
import { INTERVIEW_ARGUMENTS } from "./models/scripted";
import { ModelError, type HistoryItem, type Model } from "./models/types";
import type { RunningServer } from "./server";
import { api, createSession, createTestHosts, type FrameClient } from "../testing/host/harness";
import { createTempDirs } from "../testing/host/temp-dirs";

const hosts = createTestHosts();
const start = hosts.startSynced;
const { make: tempDir, removeAll: removeTempDirs } = createTempDirs("parley-turns-");
afterEach(async () => {
  await hosts.closeAll();
  removeTempDirs();
});

async function send(url: string, sessionId: string, text: string): Promise<Message> {
  const response = await api(url, `/api/sessions/${sessionId}/messages`, { json: { text } });
  expect(response.status).toBe(202);
  return (response.body as { message: Message }).message;
}

async function question(client: FrameClient, sessionId: string, from: number) {
  return client.waitFor<QuestionRequestedFrame>((frame, index) => index >= from && frame.type === "question/requested" && frame.sessionId === sessionId);
}

async function respond(url: string, body: unknown) {
  const result = await api(url, "/api/respond", { json: body });
  expect(result.body).toEqual({ accepted: true });
}

async function transcript(url: string, sessionId: string): Promise<Message[]> {
  return ((await api(url, `/api/sessions/${sessionId}`)).body as { messages: Message[] }).messages;
}

async function abort(url: string, sessionId: string) {
  expect((await api(url, `/api/sessions/${sessionId}/abort`, { method: "POST" })).body).toEqual({ aborted: true });
}

interface Turn {
  server: RunningServer;
  client: FrameClient;
  id: string;
  /** Index of the turn's first frame in `client.frames`. */
  from: number;
  user: Message;
}

/** Sends `text` as the next turn of the same session. */
async function nextTurn(turn: Omit<Turn, "from" | "user">, text: string): Promise<Turn> {
  const from = turn.client.frames.length;
  const user = await send(turn.server.url, turn.id, text);
  return { ...turn, from, user };
}

/** Starts a host, opens a session and sends `text` in it. */
async function startTurn(text: string, overrides: Parameters<typeof start>[0] = {}): Promise<Turn> {
  const { server, client } = await start(overrides);
  return nextTurn({ server, client, id: await createSession(server.url) }, text);
}

/** Waits until the turn is over and returns the session's transcript. */
async function settle(turn: Turn): Promise<Message[]> {
  await turn.client.waitTurnEnd(turn.id, turn.from);
  return transcript(turn.server.url, turn.id);
}

/** Answers the turn's question with `answers` and waits until the turn is over. */
async function answer(turn: Turn, answers: AnswerItem[]) {
  const requested = await question(turn.client, turn.id, turn.from);
  await respond(turn.server.url, { type: "answer", rpcId: requested.rpcId, sessionId: turn.id, answers });
  await turn.client.waitTurnEnd(turn.id, turn.from);
  return requested;
}

/** The transcript without ids and timestamps, so whole values can be compared. */
function shape(messages: Message[]) {
  return messages.map(({ id: _id, createdAt: _createdAt, sessionId: _sessionId, ...rest }) => rest);
}

const ASK_JSON = '{"questions":[{"id":"pkg","question":"Which package manager?","options":[{"label":"pnpm (Recommended)"},{"label":"npm"}]}]}';
const ASK_ARGS = { questions: [{ id: "pkg", question: "Which package manager?", options: [{ label: "pnpm (Recommended)" }, { label: "npm" }] }] };

/** The /ask tool row, without ids, of a question that ended without an answer. */
function unansweredAskRow(status: "error" | "stopped", code: string, message: string) {
  const error = { name: "UserInteractionError", code, message };
  return { role: "tool", tool: { callId: "call_1", name: "ask_user_question", args: ASK_ARGS, status, result: `Error: ${message}\n{"name":"UserInteractionError","code":"${code}"}`, error } };
}

describe("whole turns through the scripted model", { timeout: 20_000 }, () => {
  it("runs /ask answered: question, tool result, then the Answers reply streamed as deltas", async () => {
    const turn = await startTurn(`/ask ${ASK_JSON}`);
    const requested = await answer(turn, [{ id: "pkg", selected: ["pnpm (Recommended)"] }]);
    expect(requested.questions).toEqual([{ id: "pkg", question: "Which package manager?", options: [{ label: "pnpm (Recommended)" }, { label: "npm" }] }]);
    const result = '{"answers":[{"id":"pkg","selected":["pnpm (Recommended)"]}]}';
    const messages = await transcript(turn.server.url, turn.id);
    expect(messages[0]).toEqual(turn.user);
    expect(shape(messages)).toEqual([
      { role: "user", text: `/ask ${ASK_JSON}` },
      {
        role: "tool",
        tool: { callId: "call_1", name: "ask_user_question", args: ASK_ARGS, status: "ok", result, outcome: { kind: "answered", answers: [{ id: "pkg", selected: ["pnpm (Recommended)"] }] } },
      },
      { role: "assistant", text: `Answers: ${result}` },
    ]);
    const reply = messages[2]!;
    const { frames } = turn.client;
    const deltas = frames.flatMap((frame) => (frame.type === "message/delta" && frame.messageId === reply.id ? [frame.text] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(`Answers: ${result}`);
    const replyFrames = frames.filter((frame) => (frame.type === "message/upserted" && frame.message.id === reply.id) || (frame.type === "message/delta" && frame.messageId === reply.id));
    expect(replyFrames[0]).toEqual({ type: "message/upserted", message: { ...reply, text: "" } });
    expect(replyFrames.at(-1)).toEqual({ type: "message/upserted", message: reply });
  });

  it("moves the session through running, waiting, running and idle, one session/upserted per change, titled by the first question", async () => {
    const turn = await startTurn(`/ask ${ASK_JSON}`);
    await answer(turn, [{ id: "pkg", selected: [] }]);
    const sessions = turn.client.frames.slice(turn.from).flatMap((frame) => (frame.type === "session/upserted" ? [frame.session] : []));
    expect(sessions.map((session) => [session.state, session.title])).toEqual([
      ["running", "New chat"],
      ["running", "Which package manager?"],
      ["waiting", "Which package manager?"],
      ["running", "Which package manager?"],
      ["idle", "Which package manager?"],
    ]);
  });

  it("runs /ask skipped and replies with the empty selection", async () => {
    const turn = await startTurn(`/ask ${ASK_JSON}`);
    await answer(turn, [{ id: "pkg", selected: [] }]);
    expect((await transcript(turn.server.url, turn.id)).at(-1)?.text).toBe('Answers: {"answers":[{"id":"pkg","selected":[]}]}');
  });

  it("runs /ask cancelled: the tool row is an ASK_CANCELLED error and the reply is Error: ASK_CANCELLED", async () => {
    const turn = await startTurn(`/ask ${ASK_JSON}`);
    const requested = await question(turn.client, turn.id, turn.from);
    await respond(turn.server.url, { type: "cancel", rpcId: requested.rpcId, sessionId: turn.id });
    expect(shape(await settle(turn))).toEqual([
      { role: "user", text: `/ask ${ASK_JSON}` },
      unansweredAskRow("error", "ASK_CANCELLED", "the user cancelled ask_user_question"),
      { role: "assistant", text: "Error: ASK_CANCELLED" },
    ]);
  });

  it("runs /ask aborted: the tool row is stopped, no reply, and the next turn still works", async () => {
    const turn = await startTurn(`/ask ${ASK_JSON}`);
    await question(turn.client, turn.id, turn.from);
    await abort(turn.server.url, turn.id);
    expect(shape(await settle(turn))).toEqual([{ role: "user", text: `/ask ${ASK_JSON}` }, unansweredAskRow("stopped", "ASK_ABORTED", "ask_user_question was aborted before the user answered")]);
    expect((await settle(await nextTurn(turn, "/echo still here"))).at(-1)?.text).toBe("still here");
  });

  it("runs /plan approved and replies Plan approved.", async () => {
    const turn = await startTurn("/plan # Steps\n1. Write tests");
    const requested = await answer(turn, [{ id: "plan-review", selected: ["Approve"] }, { id: "plan-note", selected: [] }]);
    expect(requested.questions).toEqual(planReviewQuestions("# Steps\n1. Write tests"));
    expect(shape(await transcript(turn.server.url, turn.id))).toEqual([
      { role: "user", text: "/plan # Steps\n1. Write tests" },
      { role: "tool", tool: { callId: "call_1", name: "present_plan", args: { plan: "# Steps\n1. Write tests" }, status: "ok", result: "approved", outcome: { kind: "approved" } } },
      { role: "assistant", text: "Plan approved." },
    ]);
  });

  it("runs /plan approved with a note and replies with the approval and the note", async () => {
    const turn = await startTurn("/plan 1. Ship");
    await answer(turn, [{ id: "plan-review", selected: ["Approve"] }, { id: "plan-note", selected: [], custom: "ship after the freeze" }]);
    expect(shape(await transcript(turn.server.url, turn.id)).slice(1)).toEqual([
      { role: "tool", tool: { callId: "call_1", name: "present_plan", args: { plan: "1. Ship" }, status: "ok", result: "approved. Note from the human: ship after the freeze", outcome: { kind: "approved", note: "ship after the freeze" } } },
      { role: "assistant", text: "Plan approved. Note: ship after the freeze" },
    ]);
  });

  it("runs /plan refused and replies Keep planning with the feedback or the declining label", async () => {
    const first = await startTurn("/plan do it");
    await answer(first, [{ id: "plan-review", selected: ["Keep planning"] }, { id: "plan-note", selected: [] }]);
    expect((await transcript(first.server.url, first.id)).at(-1)?.text).toBe("Keep planning: Keep planning");
    const second = await nextTurn(first, "/plan do it again");
    await answer(second, [{ id: "plan-review", selected: ["Keep planning"] }, { id: "plan-note", selected: [], custom: "add a rollback step" }]);
    expect((await transcript(second.server.url, second.id)).at(-1)?.text).toBe("Keep planning: add a rollback step");
  });

  it("runs /echo as streamed text with no tools", async () => {
    const turn = await startTurn("/echo Hello, 世界! 👋 streaming");
    expect(shape(await settle(turn))).toEqual([
      { role: "user", text: "/echo Hello, 世界! 👋 streaming" },
      { role: "assistant", text: "Hello, 世界! 👋 streaming" },
    ]);
    const deltas = turn.client.frames.flatMap((frame) => (frame.type === "message/delta" ? [frame.text] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Hello, 世界! 👋 streaming");
  });

  it("answers invalid JSON after /ask with a message saying so and no tool call", async () => {
    const messages = shape(await settle(await startTurn("/ask {nope")));
    expect(messages.length).toBe(2);
    expect(messages[1]?.role).toBe("assistant");
    expect(messages[1]?.text).toMatch(/^Invalid JSON after \/ask: /);
  });

  it("reports arguments that break the tool schema as Error: INVALID_ARGS", async () => {
    const messages = await settle(await startTurn('/ask {"questions":[{"id":"a","question":"A?","recommended":true}]}'));
    expect(messages[1]?.tool?.status).toBe("error");
    expect(messages[1]?.tool?.error?.code).toBe("INVALID_ARGS");
    expect(messages[1]?.tool?.error?.message).toContain("questions.0");
    expect(messages.at(-1)?.text).toBe("Error: INVALID_ARGS");
  });

  it("runs the built-in interview: one batch of three questions, then a streamed summary", async () => {
    const turn = await startTurn("Hi there");
    const requested = await question(turn.client, turn.id, turn.from);
    const [goal, priorities, details] = requested.questions;
    expect(goal?.options?.[0]?.label.endsWith(" (Recommended)")).toBe(true);
    expect(goal?.multiSelect).toBeUndefined();
    expect(priorities?.multiSelect).toBe(true);
    expect(details?.options).toBeUndefined();
    expect(requested.questions.length).toBe(3);
    await answer(turn, [
      { id: goal!.id, selected: [goal!.options![0]!.label] },
      { id: priorities!.id, selected: [priorities!.options![1]!.label, priorities!.options![0]!.label], custom: "Dark mode" },
      { id: details!.id, selected: [] },
    ]);
    const messages = await transcript(turn.server.url, turn.id);
    expect(messages[1]?.tool?.args).toEqual(JSON.parse(INTERVIEW_ARGUMENTS));
    expect(messages.at(-1)?.text).toBe(
      [
        "Thanks! Here is what I heard:",
        "- Goal: A web app (Recommended)",
        "- Priorities: Accessibility, Speed, Dark mode",
        "- Details: (skipped)",
        "",
        "This is the scripted model. Try /ask <json>, /plan <markdown> or /echo <text>.",
      ].join("\n"),
    );
    const session = ((await api(turn.server.url, `/api/sessions/${turn.id}`)).body as { session: Session }).session;
    expect(session.title).toBe("Hi there");
  });

  it("keeps every transcript identical after a host restart on the same data dir", async () => {
    const dataDir = tempDir();
    const { server, client } = await start({ dataDir });
    const scenarios: { text: string; respond: ((rpcId: string, sessionId: string) => unknown) | "abort"; reply: string | null }[] = [
      {
        text: `/ask ${ASK_JSON}`,
        respond: (rpcId, sessionId) => ({ type: "answer", rpcId, sessionId, answers: [{ id: "pkg", selected: ["npm"] }] }),
        reply: 'Answers: {"answers":[{"id":"pkg","selected":["npm"]}]}',
      },
      { text: `/ask ${ASK_JSON}`, respond: (rpcId, sessionId) => ({ type: "answer", rpcId, sessionId, answers: [{ id: "pkg", selected: [] }] }), reply: 'Answers: {"answers":[{"id":"pkg","selected":[]}]}' },
      { text: `/ask ${ASK_JSON}`, respond: (rpcId, sessionId) => ({ type: "cancel", rpcId, sessionId }), reply: "Error: ASK_CANCELLED" },
      { text: `/ask ${ASK_JSON}`, respond: "abort", reply: null },
      { text: "/plan ship it", respond: (rpcId, sessionId) => ({ type: "answer", rpcId, sessionId, answers: [{ id: "plan-review", selected: ["Approve"] }, { id: "plan-note", selected: [] }] }), reply: "Plan approved." },
      {
        text: "/plan ship it",
        respond: (rpcId, sessionId) => ({ type: "answer", rpcId, sessionId, answers: [{ id: "plan-review", selected: ["Keep planning"] }, { id: "plan-note", selected: [] }] }),
        reply: "Keep planning: Keep planning",
      },
    ];
    const ids: string[] = [];
    for (const scenario of scenarios) {
      const turn = await nextTurn({ server, client, id: await createSession(server.url) }, scenario.text);
      ids.push(turn.id);
      const requested = await question(client, turn.id, turn.from);
      if (scenario.respond === "abort") await abort(server.url, turn.id);
      else await respond(server.url, scenario.respond(requested.rpcId, turn.id));
      await client.waitTurnEnd(turn.id, turn.from);
    }
    const before = await Promise.all(ids.map((id) => api(server.url, `/api/sessions/${id}`)));
    const listBefore = await api(server.url, "/api/sessions");
    const lastRows = before.map((result) => (result.body as { messages: Message[] }).messages.at(-1)!);
    expect(lastRows.map((row) => (row.role === "assistant" ? row.text : null))).toEqual(scenarios.map((scenario) => scenario.reply));
    expect(lastRows[3]?.tool?.status).toBe("stopped");

    await client.close();
    await hosts.stop(server);
    const restarted = await start({ dataDir });
    // A restarted single host is a new host; a cluster's id lives as long as its database (docs/protocol.md, cluster-fanout).
    if (process.env.PARLEY_TEST_STORE === "postgres") expect(restarted.server.hostId).toBe(server.hostId);
    else expect(restarted.server.hostId).not.toBe(server.hostId);
    const after = await Promise.all(ids.map((id) => api(restarted.server.url, `/api/sessions/${id}`)));
    expect(after.map((result) => result.body)).toEqual(before.map((result) => result.body));
    expect((await api(restarted.server.url, "/api/sessions")).body).toEqual(listBefore.body);

    const messages = await settle(await nextTurn({ ...restarted, id: ids[0]! }, "/echo after restart"));
    expect(messages.map((message) => message.role)).toEqual(["user", "tool", "assistant", "user", "assistant"]);
  });

  it("shows a question interrupted by a shutdown as a stopped row after the restart, and the model sees ASK_ABORTED", async () => {
    const dataDir = tempDir();
    const turn = await startTurn(`/ask ${ASK_JSON}`, { dataDir });
    await question(turn.client, turn.id, turn.from);
    await turn.client.close();
    await hosts.stop(turn.server);
    const histories: HistoryItem[][] = [];
    const recording: Model = {
      name: "recording",
      async *step({ history }) {
        histories.push(history);
        yield { type: "text", delta: "ok" };
      },
    };
    const restarted = await start({ dataDir, model: recording });
    const tool = (await transcript(restarted.server.url, turn.id))[1]?.tool;
    expect(tool?.status).toBe("stopped");
    await settle(await nextTurn({ ...restarted, id: turn.id }, "go on"));
    expect(histories[0]).toEqual([
      { role: "user", text: `/ask ${ASK_JSON}` },
      { role: "assistant", text: "", toolCalls: [{ callId: "call_1", name: "ask_user_question", arguments: ASK_JSON }] },
      {
        role: "tool",
        callId: "call_1",
        name: "ask_user_question",
        text: 'Error: web user-interaction provider was disposed\n{"name":"UserInteractionError","code":"ASK_ABORTED"}',
        isError: true,
      },
      { role: "user", text: "go on" },
    ]);
  });
});

describe("agent loop with other models", () => {
  it("ends the turn with an Error: assistant row when the model fails", async () => {
    const failing: Model = {
      name: "failing",
      // eslint-disable-next-line require-yield
      async *step() {
        throw new ModelError("upstream answered 503", "MODEL_UNAVAILABLE");
      },
    };
    expect(shape(await settle(await startTurn("hello", { model: failing })))).toEqual([
      { role: "user", text: "hello" },
      { role: "assistant", text: "Error: the model failed: upstream answered 503", failure: { code: "MODEL_UNAVAILABLE" } },
    ]);
  });

  it("stops after maxSteps with a clear assistant message", async () => {
    let calls = 0;
    const looping: Model = {
      name: "looping",
      async *step() {
        calls += 1;
        yield { type: "tool-call", call: { callId: `c${calls}`, name: "no_such_tool", arguments: "{}" } };
      },
    };
    const messages = await settle(await startTurn("loop", { model: looping, maxSteps: 3 }));
    expect(calls).toBe(3);
    expect(messages.filter((message) => message.role === "tool").map((message) => message.tool?.error?.code)).toEqual(["UNKNOWN_TOOL", "UNKNOWN_TOOL", "UNKNOWN_TOOL"]);
    expect(messages.at(-1)?.text).toBe("Stopped after 3 model steps without a final answer (PARLEY_MAX_STEPS).");
  });

  it("stores unparsable tool arguments as {} and reports INVALID_ARGS to the model", async () => {
    const histories: HistoryItem[][] = [];
    const model: Model = {
      name: "sloppy",
      async *step({ history }) {
        histories.push(history);
        if (history.at(-1)?.role === "tool") return;
        yield { type: "text", delta: "Let me ask." };
        yield { type: "tool-call", call: { callId: "c1", name: "ask_user_question", arguments: '{"questions": [' } };
      },
    };
    const tool = (await settle(await startTurn("hello", { model })))[2]?.tool;
    expect([tool?.args, tool?.status, tool?.error?.code]).toEqual([{}, "error", "INVALID_ARGS"]);
    expect(histories[1]?.slice(1)).toEqual([
      { role: "assistant", text: "Let me ask.", toolCalls: [{ callId: "c1", name: "ask_user_question", arguments: '{"questions": [' }] },
      { role: "tool", callId: "c1", name: "ask_user_question", text: tool?.result, isError: true },
    ]);
  });

  it("returns the text streamed so far for an assistant message that is still streaming", async () => {
    let release: () => void = () => undefined;
    const paused: Model = {
      name: "paused",
      async *step() {
        yield { type: "text", delta: "Hello, " };
        yield { type: "text", delta: "wor" };
        await new Promise<void>((resolve) => (release = resolve));
        yield { type: "text", delta: "ld" };
      },
    };
    const turn = await startTurn("hello", { model: paused });
    await turn.client.waitFor((frame, index) => index >= turn.from && frame.type === "message/delta" && frame.text === "wor");
    expect((await transcript(turn.server.url, turn.id)).at(-1)?.text).toBe("Hello, wor");
    release();
    expect((await settle(turn)).at(-1)?.text).toBe("Hello, world");
  });

  it("stops the model when the turn is aborted", async () => {
    let sawAbort = false;
    const slow: Model = {
      name: "slow",
      async *step({ signal }) {
        yield { type: "text", delta: "thinking" };
        await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
        sawAbort = signal.aborted;
      },
    };
    const turn = await startTurn("hello", { model: slow });
    await turn.client.waitFor((frame, index) => index >= turn.from && frame.type === "message/delta");
    await abort(turn.server.url, turn.id);
    const messages = await settle(turn);
    expect(sawAbort).toBe(true);
    expect(shape(messages)).toEqual([
      { role: "user", text: "hello" },
      { role: "assistant", text: "thinking" },
    ]);
  });
});
