import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DownFrame, Message, QuestionRequestedFrame } from "../../protocol/schemas";
import { silentLogger, type LogEntry, type Logger } from "../log";
import { api, createSession, createTestHosts, storeHealth, type FrameClient } from "../../testing/host/harness";
import { createTempDirs } from "../../testing/host/temp-dirs";
import { ASK_USER_QUESTION_DESCRIPTION, AskUserQuestionArgs } from "../tools/ask-user-question";
import { PresentPlanArgs } from "../tools/present-plan";
import { toolParameters } from "../tools/registry";
import { askRound, startFakeOpenAIServer, textReply, toolCallReply, type FakeOpenAIServer } from "../../testing/fake-openai-server";
import { createOpenAIModel } from "./openai";
import { SYSTEM_PROMPT } from "./system-prompt";
import { listedBuiltInTools } from "../tools/built-in";

const API_KEY = "sk-host-test-secret-42";

let fake: FakeOpenAIServer;
const hosts = createTestHosts();
const { make: tempDir, removeAll: removeTempDirs } = createTempDirs("parley-openai-host-");

beforeEach(async () => {
  fake = await startFakeOpenAIServer();
});

afterEach(async () => {
  await hosts.closeAll();
  await fake.close();
  removeTempDirs();
});

function openAIModel() {
  return createOpenAIModel({
    model: "fake-model",
    baseURL: fake.baseURL,
    apiKey: API_KEY,
    timing: { sleep: async () => undefined },
  });
}

async function startHost(dataDir = ":memory:", log: Logger = silentLogger) {
  return hosts.startSynced({ model: openAIModel(), dataDir, log });
}

async function send(url: string, sessionId: string, text: string): Promise<void> {
  const response = await api(url, `/api/sessions/${sessionId}/messages`, { json: { text } });
  expect(response.status).toBe(202);
}

function nextQuestion(client: FrameClient, sessionId: string, from: number) {
  return client.waitFor<QuestionRequestedFrame>(
    (frame, index) => index >= from && frame.type === "question/requested" && frame.sessionId === sessionId,
    "question/requested",
  );
}

async function transcript(url: string, sessionId: string): Promise<Message[]> {
  return ((await api(url, `/api/sessions/${sessionId}`)).body as { messages: Message[] }).messages;
}

function shape(messages: Message[]) {
  return messages.map(({ id: _id, createdAt: _createdAt, sessionId: _sessionId, ...rest }) => rest);
}

function deltas(frames: DownFrame[], sessionId: string): string[] {
  return frames.flatMap((frame) => (frame.type === "message/delta" && frame.sessionId === sessionId ? [frame.text] : []));
}

const TOOLS_WIRE = [
  {
    type: "function",
    function: { name: "ask_user_question", description: ASK_USER_QUESTION_DESCRIPTION, parameters: toolParameters(AskUserQuestionArgs) },
  },
  {
    type: "function",
    function: {
      name: "present_plan",
      description: listedBuiltInTools().list().find((tool) => tool.name === "present_plan")!.description,
      parameters: toolParameters(PresentPlanArgs),
    },
  },
];

const ASK_ARGS = '{"questions":[{"id":"pkg","question":"Which package manager?","options":[{"label":"pnpm (Recommended)"},{"label":"npm"}]}]}';

describe("a real-model turn through the host", { timeout: 20_000 }, () => {
  it("asks the human, sends the exact answer back as the tool result, and streams the reply to the browser", async () => {
    const { server, client } = await startHost();
    const sessionId = await createSession(server.url);
    fake.enqueue(
      toolCallReply(
        [{ index: 0, id: "call_pkg", type: "function", function: { name: "ask_user_question", arguments: ASK_ARGS.slice(0, 30) } }],
        [{ index: 0, function: { arguments: ASK_ARGS.slice(30, 80) } }],
        [{ index: 0, function: { arguments: ASK_ARGS.slice(80) } }],
      ),
      textReply("pnpm ", "it is."),
    );
    const from = client.frames.length;

    await send(server.url, sessionId, "Set up the project");
    const asked = await nextQuestion(client, sessionId, from);
    const receipt = await api(server.url, "/api/respond", {
      json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: [{ id: "pkg", selected: ["pnpm (Recommended)"] }] },
    });
    await client.waitTurnEnd(sessionId, from);

    expect(asked.questions).toEqual([
      { id: "pkg", question: "Which package manager?", options: [{ label: "pnpm (Recommended)" }, { label: "npm" }] },
    ]);
    expect(receipt.body).toEqual({ accepted: true });
    const answerText = '{"answers":[{"id":"pkg","selected":["pnpm (Recommended)"]}]}';
    expect(fake.requests.map((request) => request.body)).toEqual([
      {
        model: "fake-model",
        messages: [
          { role: "system", content: SYSTEM_PROMPT },
          { role: "user", content: "Set up the project" },
        ],
        tools: TOOLS_WIRE,
        stream: true,
      },
      {
        model: "fake-model",
        messages: [
          { role: "system", content: SYSTEM_PROMPT },
          { role: "user", content: "Set up the project" },
          ...askRound("call_pkg", ASK_ARGS, answerText),
        ],
        tools: TOOLS_WIRE,
        stream: true,
      },
    ]);
    const askParameters = (fake.requests[0]!.body as { tools: { function: { parameters: Record<string, unknown> } }[] }).tools[0]!.function.parameters;
    expect(askParameters).toMatchObject({ type: "object", required: ["questions"], additionalProperties: false });
    expect(Object.keys((askParameters as { properties: { questions: { items: { properties: object } } } }).properties.questions.items.properties)).toEqual([
      "id",
      "question",
      "header",
      "options",
      "multi_select",
    ]);
    expect(deltas(client.frames, sessionId)).toEqual(["pnpm ", "it is."]);
    expect(shape(await transcript(server.url, sessionId))).toEqual([
      { role: "user", text: "Set up the project" },
      {
        role: "tool",
        tool: {
          callId: "call_pkg",
          name: "ask_user_question",
          args: JSON.parse(ASK_ARGS),
          status: "ok",
          result: answerText,
          outcome: { kind: "answered", answers: [{ id: "pkg", selected: ["pnpm (Recommended)"] }] },
        },
      },
      { role: "assistant", text: "pnpm it is." },
    ]);
    expect((await api(server.url, "/api/health")).body).toEqual({ ok: true, hostId: server.hostId, protocol: 2, model: "openai:fake-model", ...storeHealth(server), storage: { state: "ok" } });
  });

  it("sends invalid tool arguments back as INVALID_ARGS and lets the model try again", async () => {
    const { server, client } = await startHost();
    const sessionId = await createSession(server.url);
    fake.enqueue(
      toolCallReply([{ index: 0, id: "call_bad", type: "function", function: { name: "ask_user_question", arguments: '{"questions":[]}' } }]),
      toolCallReply([
        { index: 0, id: "call_good", type: "function", function: { name: "ask_user_question", arguments: '{"questions":[{"id":"name","question":"Your name?"}]}' } },
      ]),
      textReply("Hi Ada."),
    );
    const from = client.frames.length;

    await send(server.url, sessionId, "Greet me");
    const asked = await nextQuestion(client, sessionId, from);
    await api(server.url, "/api/respond", {
      json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: [{ id: "name", selected: [], custom: "Ada" }] },
    });
    await client.waitTurnEnd(sessionId, from);

    const invalidText =
      'Error: invalid arguments: questions: Too small: expected array to have >=1 items\n{"name":"ToolError","code":"INVALID_ARGS"}';
    const messages = fake.requests.map((request) => (request.body as { messages: unknown[] }).messages.slice(1));
    expect(messages).toEqual([
      [{ role: "user", content: "Greet me" }],
      [
        { role: "user", content: "Greet me" },
        ...askRound("call_bad", '{"questions":[]}', invalidText),
      ],
      [
        { role: "user", content: "Greet me" },
        ...askRound("call_bad", '{"questions":[]}', invalidText),
        ...askRound("call_good", '{"questions":[{"id":"name","question":"Your name?"}]}', '{"answers":[{"id":"name","selected":[],"custom":"Ada"}]}'),
      ],
    ]);
    expect(shape(await transcript(server.url, sessionId)).at(-1)).toEqual({ role: "assistant", text: "Hi Ada." });
  });

  it("ends the turn with an error row naming OPENAI_API_KEY on 401, and the key appears in no frame, transcript or log", async () => {
    const logged: LogEntry[] = [];
    const { server, client } = await startHost(":memory:", (entry) => logged.push(entry));
    const sessionId = await createSession(server.url);
    fake.enqueue({ kind: "status", status: 401, body: { error: { message: `Incorrect API key provided: ${API_KEY}` } } });
    const from = client.frames.length;

    await send(server.url, sessionId, "Hello");
    await client.waitTurnEnd(sessionId, from);

    const messages = await transcript(server.url, sessionId);
    expect(shape(messages)).toEqual([
      { role: "user", text: "Hello" },
      { role: "assistant", text: "Error: the model failed: The model API rejected the key (401): check OPENAI_API_KEY", failure: { code: "MODEL_AUTH" } },
    ]);
    expect(JSON.stringify(messages)).not.toContain(API_KEY);
    expect(JSON.stringify(client.frames)).not.toContain(API_KEY);
    expect(logged).toContainEqual({ event: "model/failed", sessionId, model: "openai:fake-model", code: "MODEL_AUTH" });
    expect(JSON.stringify(logged)).not.toContain(API_KEY);
    expect(fake.requests).toHaveLength(1);
  });

  it("cancels the model's HTTP request at once when the turn is stopped", async () => {
    const { server, client } = await startHost();
    const sessionId = await createSession(server.url);
    fake.enqueue({
      kind: "stream",
      delayMs: 20,
      chunks: [{ role: "assistant", content: "Thinking" }, ...Array.from({ length: 500 }, () => ({ content: "." }))],
      ending: "stall",
    });
    const from = client.frames.length;

    await send(server.url, sessionId, "Take your time");
    await client.waitFor((frame, index) => index >= from && frame.type === "message/delta" && frame.text === "Thinking", "first delta");
    const stopped = await api(server.url, `/api/sessions/${sessionId}/abort`, { method: "POST" });

    expect(stopped.body).toEqual({ aborted: true });
    expect(await fake.nextClientClose()).toBe(0);
    await client.waitTurnEnd(sessionId, from);
    expect(fake.requests).toHaveLength(1);
  });

  it("continues after a host restart with the unanswered question sent back as an ASK_ABORTED error result", async () => {
    const dataDir = tempDir();
    const first = await startHost(dataDir);
    const sessionId = await createSession(first.server.url);
    fake.enqueue(
      toolCallReply([{ index: 0, id: "call_lost", type: "function", function: { name: "ask_user_question", arguments: ASK_ARGS } }]),
      textReply("Starting over."),
    );
    await send(first.server.url, sessionId, "Set up the project");
    await nextQuestion(first.client, sessionId, 0);
    await first.client.close();
    await hosts.stop(first.server);

    const second = await startHost(dataDir);
    const from = second.client.frames.length;
    await send(second.server.url, sessionId, "Where were we?");
    await second.client.waitTurnEnd(sessionId, from);

    const abortedText = 'Error: web user-interaction provider was disposed\n{"name":"UserInteractionError","code":"ASK_ABORTED"}';
    expect((fake.requests[1]!.body as { messages: unknown[] }).messages.slice(1)).toEqual([
      { role: "user", content: "Set up the project" },
      ...askRound("call_lost", ASK_ARGS, abortedText),
      { role: "user", content: "Where were we?" },
    ]);
  });
});
