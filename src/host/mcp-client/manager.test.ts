import { execFileSync } from "node:child_process";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { judgeAnswerRule } from "../answer-judge";
import type { LogEntry } from "../log";
import { startTestMcpHttpServer, TEST_MCP_STDIO_ARGS, TINY_PNG_BASE64, type TestMcpHttpServer } from "../../testing/host/test-mcp-server";
import { UserInteractionError, type AskRequest, type AskResult } from "../pending/user-interaction";
import type { McpServerConfig } from "./config";
import { createMcpTools, McpCallError, type McpTools } from "./manager";

const FAST_RETRY = { baseMs: 20, capMs: 50, attempts: 3 };
const WAIT_MS = 60_000;
const open: McpTools[] = [];
let http: TestMcpHttpServer;

beforeAll(async () => {
  http = await startTestMcpHttpServer();
});
afterAll(() => http.close());
afterEach(async () => {
  await Promise.all(open.splice(0).map((tools) => tools.close()));
});

type Transport = "stdio" | "http";
function serverConfig(transport: Transport, name = "notes", extra: Partial<McpServerConfig> = {}): McpServerConfig {
  const common = { name, autoApprove: ["write_note"], disabled: false };
  const server: McpServerConfig =
    transport === "stdio"
      ? { ...common, transport: "stdio", command: process.execPath, args: TEST_MCP_STDIO_ARGS, env: {} }
      : { ...common, transport: "http", url: http.url, headers: {} };
  return { ...server, ...extra } as McpServerConfig;
}

function start(servers: McpServerConfig[], ask: (ask: AskRequest) => Promise<AskResult> = () => Promise.reject(new Error("no ask expected")), callTimeoutMs?: number) {
  const logs: LogEntry[] = [];
  const tools = createMcpTools({ file: null, servers }, { log: (entry) => logs.push(entry), ask, retry: FAST_RETRY, random: () => 0.5, ...(callTimeoutMs ? { callTimeoutMs } : {}) });
  open.push(tools);
  return { tools, logs };
}

/** Resolves once `check` holds after a change; rejects after WAIT_MS. */
function until(tools: McpTools, check: () => boolean): Promise<void> {
  if (check()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`not reached: ${JSON.stringify(tools.status())}`));
    }, WAIT_MS);
    const stop = tools.onChange(() => {
      if (!check()) return;
      clearTimeout(timer);
      stop();
      resolve();
    });
  });
}

const ready = (tools: McpTools, name = "notes") => until(tools, () => tools.status().some((server) => server.name === name && server.state === "ready"));
const context = (sessionId = "session-1") => ({ sessionId, signal: new AbortController().signal });
const textOf = (result: { content: unknown }) => (result.content as { type: string; text: string }[])[0]!.text;

async function events(tools: McpTools): Promise<string[]> {
  return JSON.parse(textOf(await tools.call("mcp__notes__events", {}, context()))) as string[];
}

/** Waits until the server has recorded `event` since index `from` of its event list. */
async function eventually(tools: McpTools, from: number, event: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if ((await events(tools)).slice(from).includes(event)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the server never recorded ${event}`);
}

describe.each<Transport>(["stdio", "http"])("the MCP manager over %s", { timeout: 90_000 }, (transport) => {
  it("offers each tool as mcp__<server>__<tool> with its JSON Schema, read-only and destructive hints and autoApprove", async () => {
    const { tools, logs } = start([serverConfig(transport)]);
    await ready(tools);
    expect(tools.status()).toEqual([{ name: "notes", state: "ready", tools: 18 }]);
    expect(tools.tools().find((tool) => tool.tool === "read_note")).toEqual({
      name: "mcp__notes__read_note",
      server: "notes",
      tool: "read_note",
      description: "Reads a note",
      inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"], $schema: "http://json-schema.org/draft-07/schema#" },
      readOnly: true,
      autoApproved: false,
      destructive: false,
    });
    expect(tools.tools().find((tool) => tool.tool === "write_note")).toEqual({
      name: "mcp__notes__write_note",
      server: "notes",
      tool: "write_note",
      description: "Writes a note",
      inputSchema: { type: "object", properties: { name: { type: "string" }, text: { type: "string" } }, required: ["name", "text"], $schema: "http://json-schema.org/draft-07/schema#" },
      readOnly: false,
      autoApproved: true,
      destructive: false,
    });
    expect(logs.filter((entry) => entry.event === "mcp/server-ready")).toEqual([{ event: "mcp/server-ready", server: "notes", transport, tools: 18 }]);
  });

  it("calls tools with exactly the arguments and returns the server's result, errors and images included", async () => {
    const { tools } = start([serverConfig(transport)]);
    await ready(tools);
    expect(await tools.call("mcp__notes__write_note", { name: "plan", text: "ship friday" }, context())).toEqual({ content: [{ type: "text", text: "saved plan" }] });
    expect(await tools.call("mcp__notes__read_note", { name: "plan" }, context())).toEqual({ content: [{ type: "text", text: "ship friday" }] });
    expect(await tools.call("mcp__notes__fail", {}, context())).toEqual({ content: [{ type: "text", text: "the tool failed on purpose" }], isError: true });
    expect(await tools.call("mcp__notes__image", {}, context())).toEqual({ content: [{ type: "image", data: TINY_PNG_BASE64, mimeType: "image/png" }] });
    await expect(tools.call("mcp__notes__nothing", {}, context())).rejects.toEqual(new McpCallError("UNKNOWN_TOOL", "no MCP server offers the tool mcp__notes__nothing"));
  });

  it("refreshes the offered tools on tools/list_changed", async () => {
    const { tools } = start([serverConfig(transport)]);
    await ready(tools);
    const added = until(tools, () => tools.tools().some((tool) => tool.name === "mcp__notes__late"));
    expect(await tools.call("mcp__notes__add_tool", { name: "late" }, context())).toEqual({ content: [{ type: "text", text: "added late" }] });
    await added;
    expect(tools.status()).toEqual([{ name: "notes", state: "ready", tools: 19 }]);
    expect(await tools.call("mcp__notes__late", {}, context())).toEqual({ content: [{ type: "text", text: "late ran" }] });
  });

  it("sends notifications/cancelled when the call's signal aborts, and the server sees it", async () => {
    const { tools } = start([serverConfig(transport)]);
    await ready(tools);
    const before = transport === "http" ? http.events.length : 0;
    const controller = new AbortController();
    const call = tools.call("mcp__notes__slow", { ms: 20_000 }, { sessionId: "session-1", signal: controller.signal });
    await eventually(tools, before, "slow:started");
    controller.abort();
    await expect(call).rejects.toEqual(new McpCallError("TOOL_FAILED", "the call of mcp__notes__slow was stopped"));
    await eventually(tools, before, "slow:aborted");
    expect((await events(tools)).slice(before)).toEqual(["slow:started", "slow:aborted"]);
  });

  it("reports a server that dies mid-call, fails the call, and reconnects with backoff while other servers keep working", async () => {
    const { tools, logs } = start([serverConfig(transport), serverConfig("stdio", "other")]);
    await ready(tools);
    await ready(tools, "other");
    const failed = until(tools, () => tools.status()[0]!.state === "failed");
    await expect(tools.call("mcp__notes__crash", {}, context())).rejects.toBeInstanceOf(McpCallError);
    await failed;
    expect(tools.tools().filter((tool) => tool.server === "notes")).toEqual([]);
    expect(await tools.call("mcp__other__read_note", { name: "x" }, context())).toEqual({ content: [{ type: "text", text: "no note named x" }] });
    await ready(tools);
    expect(tools.status()).toEqual([
      { name: "notes", state: "ready", tools: 18 },
      { name: "other", state: "ready", tools: 18 },
    ]);
    expect(logs.filter((entry) => entry.event === "mcp/server-failed").map(({ server, attempt, retryInMs }) => ({ server, attempt, retryInMs }))).toEqual([
      { server: "notes", attempt: 0, retryInMs: 10 },
    ]);
  });
});

describe("the MCP manager's stdio servers and failures", { timeout: 90_000 }, () => {
  it("starts a stdio server with a minimal environment plus its env, never the host's secrets", async () => {
    process.env.PARLEY_TEST_SECRET = "hunter2";
    try {
      const { tools } = start([serverConfig("stdio", "notes", { env: { NOTES_DIR: "/tmp" } } as Partial<McpServerConfig>)]);
      await ready(tools);
      const names = JSON.parse(textOf(await tools.call("mcp__notes__environment", {}, context()))) as string[];
      expect(names.filter((name) => !["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"].includes(name))).toEqual(["NOTES_DIR"]);
    } finally {
      delete process.env.PARLEY_TEST_SECRET;
    }
  });

  it("retries a server that cannot start a bounded number of times, failed all along, then says it gave up", async () => {
    const { tools, logs } = start([serverConfig("stdio", "broken", { env: { TEST_MCP_FAIL_START: "1" } } as Partial<McpServerConfig>)]);
    const states = [tools.status()[0]!.state];
    tools.onChange(() => {
      const state = tools.status()[0]!.state;
      if (states.at(-1) !== state) states.push(state);
    });
    await until(tools, () => tools.status()[0]!.error?.endsWith("(gave up after 3 attempts)") === true);
    const error = "could not start (MCP error -32000: Connection closed): test server: refusing to start";
    expect(tools.status()).toEqual([{ name: "broken", state: "failed", tools: 0, error: `${error} (gave up after 3 attempts)` }]);
    expect(logs.filter((entry) => entry.event === "mcp/server-failed")).toEqual([
      { event: "mcp/server-failed", server: "broken", error, attempt: 0, retryInMs: 10 },
      { event: "mcp/server-failed", server: "broken", error, attempt: 1, retryInMs: 20 },
      { event: "mcp/server-failed", server: "broken", error, attempt: 2, retryInMs: 25 },
      { event: "mcp/server-failed", server: "broken", error, attempt: 3, retryInMs: null },
    ]);
    expect(states).toEqual(["starting", "failed"]);
  });

  it("reports a server's own words in its error without bidi controls, and logs them as they were", async () => {
    const { tools, logs } = start([serverConfig("stdio", "broken", { env: { TEST_MCP_FAIL_START: "1", TEST_MCP_FAIL_TEXT: "bad key in conf\u202Egifnoc.yml" } } as Partial<McpServerConfig>)]);
    await until(tools, () => tools.status()[0]!.state === "failed");
    const error = "could not start (MCP error -32000: Connection closed): bad key in conf\u202Egifnoc.yml";
    expect(tools.status()[0]).toEqual({ name: "broken", state: "failed", tools: 0, error: "could not start (MCP error -32000: Connection closed): bad key in confgifnoc.yml" });
    expect(logs.find((entry) => entry.event === "mcp/server-failed")).toEqual({ event: "mcp/server-failed", server: "broken", error, attempt: 0, retryInMs: 10 });
  });

  it("ends its stdio servers on close", async () => {
    const children = () =>
      execFileSync("ps", ["-o", "args=", "--ppid", String(process.pid)], { encoding: "utf8" })
        .split("\n")
        .filter((line) => line.includes("test-mcp-server-stdio.ts"));
    const { tools } = start([serverConfig("stdio", "one"), serverConfig("stdio", "two")]);
    await ready(tools, "one");
    await ready(tools, "two");
    expect(children()).toHaveLength(2);
    await tools.close();
    for (let attempt = 0; attempt < 50 && children().length > 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(children()).toEqual([]);
  });

  it("never starts a disabled server and refuses calls to a server that is not ready", async () => {
    const { tools } = start([serverConfig("stdio", "off", { disabled: true })]);
    expect(tools.status()).toEqual([{ name: "off", state: "disabled", tools: 0 }]);
    expect(tools.tools()).toEqual([]);
    await expect(tools.call("mcp__off__read_note", {}, context())).rejects.toEqual(new McpCallError("UNKNOWN_TOOL", "no MCP server offers the tool mcp__off__read_note"));
  });
});

/** What a test's human answers to each elicitation of the test server, and the content the server must receive. */
const ANSWERED: { kind: string; answers: AskResult["answers"]; content: Record<string, unknown> }[] = [
  { kind: "boolean", answers: [{ id: "confirm", selected: ["No"] }], content: { confirm: false } },
  { kind: "enum", answers: [{ id: "colour", selected: ["green"] }], content: { colour: "green" } },
  { kind: "titled", answers: [{ id: "size", selected: ["Small"] }], content: { size: "s" } },
  { kind: "legacy", answers: [{ id: "region", selected: ["United States"] }], content: { region: "us" } },
  { kind: "multi", answers: [{ id: "toppings", selected: ["Ham", "Kale"] }, { id: "extras", selected: [] }], content: { toppings: ["ham", "kale"] } },
  {
    kind: "string",
    answers: [
      { id: "email", selected: [], custom: " ada@example.com " },
      { id: "site", selected: [], custom: "https://example.com/a" },
      { id: "born", selected: [], custom: "1815-12-10" },
      { id: "meet", selected: [], custom: "2026-03-01T10:00:00Z" },
      { id: "nick", selected: [] },
    ],
    content: { email: "ada@example.com", site: "https://example.com/a", born: "1815-12-10", meet: "2026-03-01T10:00:00Z" },
  },
  { kind: "number", answers: [{ id: "count", selected: [], custom: "7" }, { id: "ratio", selected: [], custom: "0.25" }], content: { count: 7, ratio: 0.25 } },
];

describe.each<Transport>(["stdio", "http"])("MCP elicitations over %s", { timeout: 90_000 }, (transport) => {
  it.each(ANSWERED)("answers the $kind form with content typed per the schema [elicitation-content]", async ({ kind, answers, content }) => {
    const asked: AskRequest[] = [];
    /** Whether each ask's signal was aborted as it was asked (it is once its call is over). */
    const abortedWhenAsked: (boolean | undefined)[] = [];
    const { tools, logs } = start([serverConfig(transport)], async (ask) => {
      asked.push(ask);
      abortedWhenAsked.push(ask.signal?.aborted);
      return { answers };
    });
    await ready(tools);
    const result = await tools.call(`mcp__notes__ask_${kind}`, {}, context("session-7"));
    expect(JSON.parse(textOf(result))).toEqual({ action: "accept", content });
    expect(asked.map(({ origin, sessionId }, index) => ({ origin, sessionId, aborted: abortedWhenAsked[index] }))).toEqual([{ origin: { kind: "mcp-server", name: "notes" }, sessionId: "session-7", aborted: false }]);
    expect([asked[0]!.rule, judgeAnswerRule(asked[0]!.rule!, asked[0]!.questions, answers)]).toEqual([{ kind: "elicitation-schema", requestedSchema: expect.any(Object) as object }, null]);
    expect(logs.filter((entry) => entry.event.startsWith("mcp/elicitation"))).toEqual([
      { event: "mcp/elicitation-requested", server: "notes", sessionId: "session-7", questions: answers.length },
      { event: "mcp/elicitation-answered", server: "notes", sessionId: "session-7", action: "accept" },
    ]);
  });

  it("asks with the message leading the first question and the server as asker [elicitation-mapping]", async () => {
    const asked: AskRequest[] = [];
    const { tools } = start([serverConfig(transport)], async (ask) => {
      asked.push(ask);
      return { answers: [{ id: "confirm", selected: ["Yes"] }] };
    });
    await ready(tools);
    await tools.call("mcp__notes__ask_boolean", {}, context());
    expect(asked.map(({ origin, questions }) => ({ origin, questions }))).toEqual([
      {
        origin: { kind: "mcp-server", name: "notes" },
        questions: [
          {
            id: "confirm",
            question: "Deploy now?",
            detail: "Confirm the deploy\n\nShips to production",
            options: [{ label: "Yes" }, { label: "No" }],
            freeText: false,
            required: true,
            defaults: { selected: ["Yes"] },
          },
        ],
      },
    ]);
  });

  it("declines when the human dismisses the questions and cancels when the call is stopped [elicitation-outcomes]", async () => {
    let stop = () => undefined as void;
    const { tools, logs } = start([serverConfig(transport)], (ask) => {
      if (ask.questions[0]!.id === "confirm") return Promise.reject(new UserInteractionError("ASK_CANCELLED", "the user cancelled ask_user_question"));
      return new Promise((_resolve, reject) => {
        ask.signal!.addEventListener("abort", () => reject(new UserInteractionError("ASK_ABORTED", "aborted")));
        stop();
      });
    });
    await ready(tools);
    expect(JSON.parse(textOf(await tools.call("mcp__notes__ask_boolean", {}, context())))).toEqual({ action: "decline" });

    const controller = new AbortController();
    const asking = new Promise<void>((resolve) => (stop = resolve));
    const call = tools.call("mcp__notes__ask_enum", {}, { sessionId: "session-1", signal: controller.signal });
    await asking;
    controller.abort();
    await expect(call).rejects.toEqual(new McpCallError("TOOL_FAILED", "the call of mcp__notes__ask_enum was stopped"));
    await until(tools, () => logs.some((entry) => entry.event === "mcp/elicitation-answered" && entry.action === "cancel"));
    expect(logs.filter((entry) => entry.event === "mcp/elicitation-answered")).toEqual([
      { event: "mcp/elicitation-answered", server: "notes", sessionId: "session-1", action: "decline", code: "ASK_CANCELLED" },
      { event: "mcp/elicitation-answered", server: "notes", sessionId: "session-1", action: "cancel", code: "ASK_ABORTED" },
    ]);
  });

  it("ends a form whose call is over (it timed out): the question is no longer asked, and the server gets cancel [elicitation-outcomes]", async () => {
    let asking = () => undefined as void;
    const asked = new Promise<void>((resolve) => (asking = resolve));
    const { tools, logs } = start(
      [serverConfig(transport)],
      (ask) => {
        asking();
        return new Promise((_resolve, reject) => ask.signal!.addEventListener("abort", () => reject(new UserInteractionError("ASK_ABORTED", "aborted"))));
      },
      4000,
    );
    await ready(tools);
    const call = tools.call("mcp__notes__ask_enum", {}, context());
    await asked;
    await expect(call).rejects.toBeInstanceOf(McpCallError);
    await until(tools, () => logs.some((entry) => entry.event === "mcp/elicitation-answered"));
    expect(logs.filter((entry) => entry.event === "mcp/elicitation-answered")).toEqual([
      { event: "mcp/elicitation-answered", server: "notes", sessionId: "session-1", action: "cancel", code: "ASK_ABORTED" },
    ]);
  });

  it("cancels an open elicitation on shutdown, and the server gets the cancel before the connection closes [elicitation-outcomes]", async () => {
    let asking = () => undefined as void;
    const asked = new Promise<void>((resolve) => (asking = resolve));
    const { tools, logs } = start([serverConfig(transport)], (ask) => {
      asking();
      return new Promise((_resolve, reject) => ask.signal!.addEventListener("abort", () => reject(new UserInteractionError("ASK_ABORTED", "disposed"))));
    });
    await ready(tools);
    const call = tools.call("mcp__notes__ask_enum", {}, context());
    await asked;
    await tools.close();
    expect(JSON.parse(textOf(await call))).toEqual({ action: "cancel" });
    expect(logs.filter((entry) => entry.event === "mcp/elicitation-answered")).toEqual([
      { event: "mcp/elicitation-answered", server: "notes", sessionId: "session-1", action: "cancel", code: "ASK_ABORTED" },
    ]);
    expect(tools.status()).toEqual([{ name: "notes", state: "ready", tools: 18 }]);
  });

  it("declines a URL-mode request it never declared, with a log line [elicitation-unsupported]", async () => {
    const { tools, logs } = start([serverConfig(transport)]);
    await ready(tools);
    expect(JSON.parse(textOf(await tools.call("mcp__notes__ask_url", {}, context())))).toEqual({ action: "decline" });
    expect(logs.filter((entry) => entry.event.startsWith("mcp/elicitation"))).toEqual([{ event: "mcp/elicitation-declined", server: "notes", reason: "the url mode is not supported" }]);
  });

  it("declines an unsupported form with a log line naming the server and the reason, without asking [elicitation-unsupported]", async () => {
    const { tools, logs } = start([serverConfig(transport)]);
    await ready(tools);
    expect(JSON.parse(textOf(await tools.call("mcp__notes__ask_nested", {}, context())))).toEqual({ action: "decline" });
    expect(logs.filter((entry) => entry.event.startsWith("mcp/elicitation"))).toEqual([
      { event: "mcp/elicitation-declined", server: "notes", reason: 'property "address": nested objects are not supported' },
    ]);
  });
});

/** A stdio server process of the real SDK whose one tool `ask` elicits the form in its FORM variable and returns what came back. */
const FORM_SERVER = `
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
const server = new McpServer({ name: "forms", version: "1.0.0" });
server.registerTool("ask", { description: "Elicits the form of FORM", annotations: { readOnlyHint: true } }, async (extra) => {
  try {
    const result = await server.server.elicitInput({ mode: "form", message: "Fill in", requestedSchema: JSON.parse(process.env.FORM) }, { relatedRequestId: extra.requestId });
    return { content: [{ type: "text", text: JSON.stringify(result) }] };
  } catch (error) {
    return { content: [{ type: "text", text: "refused: " + error.message }], isError: true };
  }
});
await server.connect(new StdioServerTransport());
`;

describe("forms whose property names are Object.prototype's", { timeout: 90_000 }, () => {
  function formServer(form: string): McpServerConfig {
    return { name: "forms", transport: "stdio", command: process.execPath, args: ["--input-type=module", "-e", FORM_SERVER], env: { FORM: form }, autoApprove: [], disabled: false };
  }
  /** Answers every question with its id as text. */
  function answerWithIds(asked: AskRequest[]) {
    return (ask: AskRequest): Promise<AskResult> => {
      asked.push(ask);
      return Promise.resolve({ answers: ask.questions.map((item) => ({ id: item.id, selected: [], custom: `${item.id} answer` })) });
    };
  }

  it("declines a form with a property named __proto__, which the server's SDK would drop from the answer, with a log line and without asking [elicitation-unsupported]", async () => {
    const asked: AskRequest[] = [];
    const { tools, logs } = start([formServer('{"type":"object","properties":{"name":{"type":"string"},"__proto__":{"type":"string"}},"required":["__proto__"]}')], answerWithIds(asked));
    await ready(tools, "forms");
    expect(await tools.call("mcp__forms__ask", {}, context())).toEqual({ content: [{ type: "text", text: '{"action":"decline"}' }] });
    expect(asked).toEqual([]);
    expect(logs.filter((entry) => entry.event.startsWith("mcp/elicitation"))).toEqual([
      { event: "mcp/elicitation-declined", server: "forms", reason: 'property "__proto__": the server\'s SDK drops a property of this name from the answer' },
    ]);
  });

  it("carries answers to properties named constructor and prototype to the server intact", async () => {
    const asked: AskRequest[] = [];
    const { tools } = start([formServer('{"type":"object","properties":{"constructor":{"type":"string"},"prototype":{"type":"string"}},"required":["constructor","prototype"]}')], answerWithIds(asked));
    await ready(tools, "forms");
    expect(await tools.call("mcp__forms__ask", {}, context())).toEqual({
      content: [{ type: "text", text: '{"action":"accept","content":{"constructor":"constructor answer","prototype":"prototype answer"}}' }],
    });
    expect(asked.map((ask) => ask.questions.map((item) => item.id))).toEqual([["constructor", "prototype"]]);
  });
});
