import { afterEach, describe, expect, it } from "vitest";
import type { QuestionRequestedFrame, QuestionResolvedFrame } from "../../protocol/schemas";
import type { RunningServer } from "../server";
import { api, connect, createSession, startTestServer, type FrameClient } from "../../testing/host/harness";
import { testMcpConfig } from "../../testing/host/test-mcp-server";

const servers: RunningServer[] = [];
const clients: FrameClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start() {
  const server = await startTestServer({
    mcpServers: testMcpConfig(),
  });
  servers.push(server);
  const client = await connect(server.url);
  clients.push(client);
  await client.waitFor((frame) => frame.type === "synced");
  await new Promise<void>((resolve) => {
    const check = () => {
      if (server.mcpTools.status()[0]?.state !== "ready") return;
      stop();
      resolve();
    };
    const stop = server.mcpTools.onChange(check);
    check();
  });
  return { server, client };
}

/** The JSON text a test-server tool answered with. */
function resultJson(result: { content: unknown[] }): unknown {
  const [first] = result.content as { type: string; text: string }[];
  return JSON.parse(first!.text);
}

const answer = (rpcId: string, sessionId: string, meet: string, email = "ada@example.com") => ({
  type: "answer",
  rpcId,
  sessionId,
  answers: [
    { id: "email", selected: [], custom: email },
    { id: "site", selected: [] },
    { id: "born", selected: [] },
    { id: "meet", selected: [], custom: meet },
    { id: "nick", selected: [] },
  ],
});

describe("an elicitation in the question panel", { timeout: 30_000 }, () => {
  it("is asked as the server, refuses an answer the requested schema refuses with the rule, and sends the accepted content [elicitation-content]", async () => {
    const { server, client } = await start();
    const sessionId = await createSession(server.url);
    const call = server.mcpTools.call("mcp__notes__ask_string", {}, { sessionId, signal: new AbortController().signal });
    const requested = await client.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested", "question/requested");
    expect({ origin: requested.origin, sessionId: requested.sessionId, ids: requested.questions.map((item) => item.id), first: requested.questions[0] }).toEqual({
      origin: { kind: "mcp-server", name: "notes" },
      sessionId,
      ids: ["email", "site", "born", "meet", "nick"],
      first: { id: "email", question: "Email", detail: "Tell me about you", input: { kind: "email" }, required: true },
    });

    const zoneless = await api(server.url, "/api/respond", { json: answer(requested.rpcId, sessionId, "2026-03-01T10:00") });
    expect(zoneless.body).toEqual({
      accepted: false,
      reason: "bad-response",
      detail: 'answers[3]: question "meet": the answer must be a date and time with a time zone (YYYY-MM-DDTHH:MM and Z or ±HH:MM)',
    });
    const accented = await api(server.url, "/api/respond", { json: answer(requested.rpcId, sessionId, "2026-03-01T10:00+01:00", "zoë@example.com") });
    expect(accented.body).toEqual({ accepted: false, reason: "bad-response", detail: `"email" must be an email address (letters, digits and !#$%&'*+/=?^_\`{|}~- before the @)` });
    expect(client.frames.filter((frame) => frame.type === "question/resolved")).toEqual([]);

    expect((await api(server.url, "/api/respond", { json: answer(requested.rpcId, sessionId, "2026-03-01T10:00+01:00") })).body).toEqual({ accepted: true });
    expect(resultJson(await call)).toEqual({ action: "accept", content: { email: "ada@example.com", meet: "2026-03-01T10:00:00+01:00" } });
    expect(client.frames.filter((frame): frame is QuestionResolvedFrame => frame.type === "question/resolved")).toEqual([
      { type: "question/resolved", rpcId: requested.rpcId, sessionId, outcome: "answered" },
    ]);
  });

  it("reaches the panel from the agent's own tool call, and the model reads what the server got back", async () => {
    const { server, client } = await start();
    const sessionId = await createSession(server.url);
    expect((await api(server.url, `/api/sessions/${sessionId}/messages`, { json: { text: "/tool mcp__notes__ask_titled {}" } })).status).toBe(202);
    const requested = await client.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested", "question/requested");
    expect({ origin: requested.origin, sessionId: requested.sessionId, questions: requested.questions }).toEqual({
      origin: { kind: "mcp-server", name: "notes" },
      sessionId,
      questions: [{ id: "size", question: "Size", detail: "Pick a size", options: [{ label: "Small" }, { label: "Large" }], freeText: false, defaults: { selected: ["Large"] } }],
    });
    const body = { type: "answer", rpcId: requested.rpcId, sessionId, answers: [{ id: "size", selected: ["Small"] }] };
    const from = client.frames.length;
    expect((await api(server.url, "/api/respond", { json: body })).body).toEqual({ accepted: true });
    await client.waitIdle(sessionId, from);
    const { messages } = (await api(server.url, `/api/sessions/${sessionId}`)).body as { messages: { role: string; text?: string }[] };
    expect(messages.map(({ role, text }) => ({ role, text }))).toEqual([
      { role: "user", text: "/tool mcp__notes__ask_titled {}" },
      { role: "tool", text: undefined },
      { role: "assistant", text: 'Tool result: {"action":"accept","content":{"size":"s"}}' },
    ]);
  });

  it("declines when the human dismisses it [elicitation-outcomes]", async () => {
    const { server, client } = await start();
    const sessionId = await createSession(server.url);
    const call = server.mcpTools.call("mcp__notes__ask_boolean", {}, { sessionId, signal: new AbortController().signal });
    const requested = await client.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested", "question/requested");
    expect((await api(server.url, "/api/respond", { json: { type: "cancel", rpcId: requested.rpcId, sessionId } })).body).toEqual({ accepted: true });
    expect(resultJson(await call)).toEqual({ action: "decline" });
  });
});
