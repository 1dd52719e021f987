import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { planReviewQuestions } from "../protocol/plan-review";
import type { Message, QuestionRequestedFrame, Session } from "../protocol/schemas";
import { INTERVIEW_ARGUMENTS } from "./models/scripted";
import { ModelError, type HistoryItem, type Model } from "./models/types";
import type { RunningServer } from "./server";
import { api, connect, createSession, startTestServer, type FrameClient } from "./testing/harness";

const servers: RunningServer[] = [];
const clients: FrameClient[] = [];
const dirs: string[] = [];
async function start(overrides: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer(overrides);
  servers.push(server);
  const client = await connect(server.url);
  clients.push(client);
  await client.waitFor((frame) => frame.type === "synced");
  return { server, client };
}
function tempDir() {
  const dir = mkdtempSync(path.join(tmpdir(), "parley-turns-"));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
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

/** The transcript without ids and timestamps, so whole values can be compared. */
function shape(messages: Message[]) {
  return messages.map(({ id: _id, createdAt: _createdAt, sessionId: _sessionId, ...rest }) => rest);
}

const ASK_JSON = '{"questions":[{"id":"pkg","question":"Which package manager?","options":[{"label":"pnpm (Recommended)"},{"label":"npm"}]}]}';
const ASK_ARGS = { questions: [{ id: "pkg", question: "Which package manager?", options: [{ label: "pnpm (Recommended)" }, { label: "npm" }] }] };

describe("whole turns through the scripted model", { timeout: 20_000 }, () => {
  it("runs /ask answered: question, tool result, then the Answers reply streamed as deltas", async () => {
    const { server, client } = await start();
    const id = await createSession(server.url);
    const from = client.frames.length;
    const user = await send(server.url, id, `/ask ${ASK_JSON}`);
    const requested = await question(client, id, from);
    expect(requested.questions).toEqual([{ id: "pkg", question: "Which package manager?", options: [{ label: "pnpm (Recommended)" }, { label: "npm" }] }]);
    await respond(server.url, { type: "answer", rpcId: requested.rpcId, sessionId: id, answers: [{ id: "pkg", selected: ["pnpm (Recommended)"] }] });
    await client.waitIdle(id, from);
    const result = '{"answers":[{"id":"pkg","selected":["pnpm (Recommended)"]}]}';
    const messages = await transcript(server.url, id);
    expect(messages[0]).toEqual(user);
    expect(shape(messages)).toEqual([
      { role: "user", text: `/ask ${ASK_JSON}` },
      {
        role: "tool",
        tool: { callId: "call_1", name: "ask_user_question", args: ASK_ARGS, status: "ok", result, outcome: { kind: "answered", answers: [{ id: "pkg", selected: ["pnpm (Recommended)"] }] } },
      },
      { role: "assistant", text: `Answers: ${result}` },
    ]);
    const reply = messages[2]!;
    const deltas = client.frames.flatMap((frame) => (frame.type === "message/delta" && frame.messageId === reply.id ? [frame.text] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(`Answers: ${result}`);
    const replyFrames = client.frames.filter((frame) => (frame.type === "message/upserted" && frame.message.id === reply.id) || (frame.type === "message/delta" && frame.messageId === reply.id));
    expect(replyFrames[0]).toEqual({ type: "message/upserted", message: { ...reply, text: "" } });
    expect(replyFrames.at(-1)).toEqual({ type: "message/upserted", message: reply });
  });

  it("moves the session through running, waiting, running and idle, one session/upserted per change, titled by the first question", async () => {
    const { server, client } = await start();
    const id = await createSession(server.url);
    const from = client.frames.length;
    await send(server.url, id, `/ask ${ASK_JSON}`);
    const requested = await question(client, id, from);
    await respond(server.url, { type: "answer", rpcId: requested.rpcId, sessionId: id, answers: [{ id: "pkg", selected: [] }] });
    await client.waitIdle(id, from);
    const sessions = client.frames.slice(from).flatMap((frame) => (frame.type === "session/upserted" ? [frame.session] : []));
    expect(sessions.map((session) => [session.state, session.title])).toEqual([
      ["running", "New chat"],
      ["running", "Which package manager?"],
      ["waiting", "Which package manager?"],
      ["running", "Which package manager?"],
      ["idle", "Which package manager?"],
    ]);
  });

  it("runs /ask skipped and replies with the empty selection", async () => {
    const { server, client } = await start();
    const id = await createSession(server.url);
    const from = client.frames.length;
    await send(server.url, id, `/ask ${ASK_JSON}`);
    const requested = await question(client, id, from);
    await respond(server.url, { type: "answer", rpcId: requested.rpcId, sessionId: id, answers: [{ id: "pkg", selected: [] }] });
    await client.waitIdle(id, from);
    expect((await transcript(server.url, id)).at(-1)?.text).toBe('Answers: {"answers":[{"id":"pkg","selected":[]}]}');
  });

  it("runs /ask cancelled: the tool row is an ASK_CANCELLED error and the reply is Error: ASK_CANCELLED", async () => {
    const { server, client } = await start();
    const id = await createSession(server.url);
    const from = client.frames.length;
    await send(server.url, id, `/ask ${ASK_JSON}`);
    const requested = await question(client, id, from);
    await respond(server.url, { type: "cancel", rpcId: requested.rpcId, sessionId: id });
    await client.waitIdle(id, from);
    const error = { name: "UserInteractionError", code: "ASK_CANCELLED", message: "the user cancelled ask_user_question" };
    expect(shape(await transcript(server.url, id))).toEqual([
      { role: "user", text: `/ask ${ASK_JSON}` },
      {
        role: "tool",
        tool: {
          callId: "call_1",
          name: "ask_user_question",
          args: ASK_ARGS,
          status: "error",
          result: 'Error: the user cancelled ask_user_question\n{"name":"UserInteractionError","code":"ASK_CANCELLED"}',
          error,
        },
      },
      { role: "assistant", text: "Error: ASK_CANCELLED" },
    ]);
  });

  it("runs /ask aborted: the tool row is stopped, no reply, and the next turn still works", async () => {
    const { server, client } = await start();
    const id = await createSession(server.url);
    const from = client.frames.length;
    await send(server.url, id, `/ask ${ASK_JSON}`);
    await question(client, id, from);
    expect((await api(server.url, `/api/sessions/${id}/abort`, { method: "POST" })).body).toEqual({ aborted: true });
    await client.waitIdle(id, from);
    expect(shape(await transcript(server.url, id))).toEqual([
      { role: "user", text: `/ask ${ASK_JSON}` },
      {
        role: "tool",
        tool: {
          callId: "call_1",
          name: "ask_user_question",
          args: ASK_ARGS,
          status: "stopped",
          result: 'Error: ask_user_question was aborted before the user answered\n{"name":"UserInteractionError","code":"ASK_ABORTED"}',
          error: { name: "UserInteractionError", code: "ASK_ABORTED", message: "ask_user_question was aborted before the user answered" },
        },
      },
    ]);
    const next = client.frames.length;
    await send(server.url, id, "/echo still here");
    await client.waitIdle(id, next);
    expect((await transcript(server.url, id)).at(-1)?.text).toBe("still here");
  });

  it("runs /plan approved and replies Plan approved.", async () => {
    const { server, client } = await start();
    const id = await createSession(server.url);
    const from = client.frames.length;
    await send(server.url, id, "/plan # Steps\n1. Write tests");
    const requested = await question(client, id, from);
    expect(requested.questions).toEqual(planReviewQuestions("# Steps\n1. Write tests"));
    await respond(server.url, { type: "answer", rpcId: requested.rpcId, sessionId: id, answers: [{ id: "plan-review", selected: ["Approve"] }, { id: "plan-note", selected: [] }] });
    await client.waitIdle(id, from);
    expect(shape(await transcript(server.url, id))).toEqual([
      { role: "user", text: "/plan # Steps\n1. Write tests" },
      { role: "tool", tool: { callId: "call_1", name: "present_plan", args: { plan: "# Steps\n1. Write tests" }, status: "ok", result: "approved", outcome: { kind: "approved" } } },
      { role: "assistant", text: "Plan approved." },
    ]);
  });

  it("runs /plan approved with a note and replies with the approval and the note", async () => {
    const { server, client } = await start();
    const id = await createSession(server.url);
    const from = client.frames.length;
    await send(server.url, id, "/plan 1. Ship");
    const requested = await question(client, id, from);
    const answers = [{ id: "plan-review", selected: ["Approve"] }, { id: "plan-note", selected: [], custom: "ship after the freeze" }];
    await respond(server.url, { type: "answer", rpcId: requested.rpcId, sessionId: id, answers });
    await client.waitIdle(id, from);
    expect(shape(await transcript(server.url, id)).slice(1)).toEqual([
      { role: "tool", tool: { callId: "call_1", name: "present_plan", args: { plan: "1. Ship" }, status: "ok", result: "approved. Note from the human: ship after the freeze", outcome: { kind: "approved", note: "ship after the freeze" } } },
      { role: "assistant", text: "Plan approved. Note: ship after the freeze" },
    ]);
  });

  it("runs /plan refused and replies Keep planning with the feedback or the declining label", async () => {
    const { server, client } = await start();
    const id = await createSession(server.url);
    let from = client.frames.length;
    await send(server.url, id, "/plan do it");
    let requested = await question(client, id, from);
    await respond(server.url, { type: "answer", rpcId: requested.rpcId, sessionId: id, answers: [{ id: "plan-review", selected: ["Keep planning"] }, { id: "plan-note", selected: [] }] });
    await client.waitIdle(id, from);
    expect((await transcript(server.url, id)).at(-1)?.text).toBe("Keep planning: Keep planning");
    from = client.frames.length;
    await send(server.url, id, "/plan do it again");
    requested = await question(client, id, from);
    await respond(server.url, { type: "answer", rpcId: requested.rpcId, sessionId: id, answers: [{ id: "plan-review", selected: ["Keep planning"] }, { id: "plan-note", selected: [], custom: "add a rollback step" }] });
    await client.waitIdle(id, from);
    expect((await transcript(server.url, id)).at(-1)?.text).toBe("Keep planning: add a rollback step");
  });

  it("runs /echo as streamed text with no tools", async () => {
    const { server, client } = await start();
    const id = await createSession(server.url);
    const from = client.frames.length;
    await send(server.url, id, "/echo Hello, 世界! 👋 streaming");
    await client.waitIdle(id, from);
    const messages = await transcript(server.url, id);
    expect(shape(messages)).toEqual([
      { role: "user", text: "/echo Hello, 世界! 👋 streaming" },
      { role: "assistant", text: "Hello, 世界! 👋 streaming" },
    ]);
    const deltas = client.frames.flatMap((frame) => (frame.type === "message/delta" ? [frame.text] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Hello, 世界! 👋 streaming");
  });

  it("answers invalid JSON after /ask with a message saying so and no tool call", async () => {
    const { server, client } = await start();
    const id = await createSession(server.url);
    const from = client.frames.length;
    await send(server.url, id, "/ask {nope");
    await client.waitIdle(id, from);
    const messages = shape(await transcript(server.url, id));
    expect(messages.length).toBe(2);
    expect(messages[1]?.role).toBe("assistant");
    expect(messages[1]?.text).toMatch(/^Invalid JSON after \/ask: /);
  });

  it("reports arguments that break the tool schema as Error: INVALID_ARGS", async () => {
    const { server, client } = await start();
    const id = await createSession(server.url);
    const from = client.frames.length;
    await send(server.url, id, '/ask {"questions":[{"id":"a","question":"A?","recommended":true}]}');
    await client.waitIdle(id, from);
    const messages = await transcript(server.url, id);
    expect(messages[1]?.tool?.status).toBe("error");
    expect(messages[1]?.tool?.error?.code).toBe("INVALID_ARGS");
    expect(messages[1]?.tool?.error?.message).toContain("questions.0");
    expect(messages.at(-1)?.text).toBe("Error: INVALID_ARGS");
  });

  it("runs the built-in interview: one batch of three questions, then a streamed summary", async () => {
    const { server, client } = await start();
    const id = await createSession(server.url);
    const from = client.frames.length;
    await send(server.url, id, "Hi there");
    const requested = await question(client, id, from);
    const [goal, priorities, details] = requested.questions;
    expect(goal?.options?.[0]?.label.endsWith(" (Recommended)")).toBe(true);
    expect(goal?.multiSelect).toBeUndefined();
    expect(priorities?.multiSelect).toBe(true);
    expect(details?.options).toBeUndefined();
    expect(requested.questions.length).toBe(3);
    await respond(server.url, {
      type: "answer",
      rpcId: requested.rpcId,
      sessionId: id,
      answers: [
        { id: goal!.id, selected: [goal!.options![0]!.label] },
        { id: priorities!.id, selected: [priorities!.options![1]!.label, priorities!.options![0]!.label], custom: "Dark mode" },
        { id: details!.id, selected: [] },
      ],
    });
    await client.waitIdle(id, from);
    const messages = await transcript(server.url, id);
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
    const session = ((await api(server.url, `/api/sessions/${id}`)).body as { session: Session }).session;
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
      const id = await createSession(server.url);
      ids.push(id);
      const from = client.frames.length;
      await send(server.url, id, scenario.text);
      const requested = await question(client, id, from);
      if (scenario.respond === "abort") expect((await api(server.url, `/api/sessions/${id}/abort`, { method: "POST" })).body).toEqual({ aborted: true });
      else await respond(server.url, scenario.respond(requested.rpcId, id));
      await client.waitIdle(id, from);
    }
    const before = await Promise.all(ids.map((id) => api(server.url, `/api/sessions/${id}`)));
    const listBefore = await api(server.url, "/api/sessions");
    const lastRows = before.map((result) => (result.body as { messages: Message[] }).messages.at(-1)!);
    expect(lastRows.map((row) => (row.role === "assistant" ? row.text : null))).toEqual(scenarios.map((scenario) => scenario.reply));
    expect(lastRows[3]?.tool?.status).toBe("stopped");

    await client.close();
    await servers.pop()!.close();
    const restarted = await start({ dataDir });
    expect(restarted.server.hostId).not.toBe(server.hostId);
    const after = await Promise.all(ids.map((id) => api(restarted.server.url, `/api/sessions/${id}`)));
    expect(after.map((result) => result.body)).toEqual(before.map((result) => result.body));
    expect((await api(restarted.server.url, "/api/sessions")).body).toEqual(listBefore.body);

    const next = restarted.client.frames.length;
    await send(restarted.server.url, ids[0]!, "/echo after restart");
    await restarted.client.waitIdle(ids[0]!, next);
    expect((await transcript(restarted.server.url, ids[0]!)).map((message) => message.role)).toEqual(["user", "tool", "assistant", "user", "assistant"]);
  });

  it("shows a question interrupted by a shutdown as a stopped row after the restart, and the model sees ASK_ABORTED", async () => {
    const dataDir = tempDir();
    const { server, client } = await start({ dataDir });
    const id = await createSession(server.url);
    const from = client.frames.length;
    await send(server.url, id, `/ask ${ASK_JSON}`);
    await question(client, id, from);
    await client.close();
    await servers.pop()!.close();
    const histories: HistoryItem[][] = [];
    const recording: Model = {
      name: "recording",
      async *step({ history }) {
        histories.push(history);
        yield { type: "text", delta: "ok" };
      },
    };
    const restarted = await start({ dataDir, model: recording });
    const tool = (await transcript(restarted.server.url, id))[1]?.tool;
    expect(tool?.status).toBe("stopped");
    const next = restarted.client.frames.length;
    await send(restarted.server.url, id, "go on");
    await restarted.client.waitIdle(id, next);
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
        throw new ModelError("upstream answered 503", "UPSTREAM");
      },
    };
    const { server, client } = await start({ model: failing });
    const id = await createSession(server.url);
    const from = client.frames.length;
    await send(server.url, id, "hello");
    await client.waitIdle(id, from);
    expect(shape(await transcript(server.url, id))).toEqual([
      { role: "user", text: "hello" },
      { role: "assistant", text: "Error: the model failed: upstream answered 503", failure: { code: "UPSTREAM" } },
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
    const { server, client } = await start({ model: looping, maxSteps: 3 });
    const id = await createSession(server.url);
    const from = client.frames.length;
    await send(server.url, id, "loop");
    await client.waitIdle(id, from);
    const messages = await transcript(server.url, id);
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
    const { server, client } = await start({ model });
    const id = await createSession(server.url);
    const from = client.frames.length;
    await send(server.url, id, "hello");
    await client.waitIdle(id, from);
    const tool = (await transcript(server.url, id))[2]?.tool;
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
    const { server, client } = await start({ model: paused });
    const id = await createSession(server.url);
    const from = client.frames.length;
    await send(server.url, id, "hello");
    await client.waitFor((frame, index) => index >= from && frame.type === "message/delta" && frame.text === "wor");
    expect((await transcript(server.url, id)).at(-1)?.text).toBe("Hello, wor");
    release();
    await client.waitIdle(id, from);
    expect((await transcript(server.url, id)).at(-1)?.text).toBe("Hello, world");
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
    const { server, client } = await start({ model: slow });
    const id = await createSession(server.url);
    const from = client.frames.length;
    await send(server.url, id, "hello");
    await client.waitFor((frame, index) => index >= from && frame.type === "message/delta");
    expect((await api(server.url, `/api/sessions/${id}/abort`, { method: "POST" })).body).toEqual({ aborted: true });
    await client.waitIdle(id, from);
    expect(sawAbort).toBe(true);
    expect(shape(await transcript(server.url, id))).toEqual([
      { role: "user", text: "hello" },
      { role: "assistant", text: "thinking" },
    ]);
  });
});
