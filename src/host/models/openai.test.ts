import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { askRound, startFakeOpenAIServer, textReply, toolCallReply, type FakeOpenAIServer, type FakeReply } from "../../testing/fake-openai-server";
import { createOpenAIModel, type OpenAIModelOptions, type RetryTiming } from "./openai";
import { SYSTEM_PROMPT } from "./system-prompt";
import { ModelError, type HistoryItem, type ModelEvent, type ToolSpec } from "./types";

const API_KEY = "sk-test-0123456789abcdef";

const ASK_TOOL: ToolSpec = {
  name: "ask_user_question",
  description: "Ask the human.",
  parameters: {
    type: "object",
    properties: { questions: { type: "array", items: { type: "object" } } },
    required: ["questions"],
    additionalProperties: false,
  },
};

const ASK_TOOL_WIRE = {
  type: "function",
  function: { name: ASK_TOOL.name, description: ASK_TOOL.description, parameters: ASK_TOOL.parameters },
};

let server: FakeOpenAIServer;

beforeEach(async () => {
  server = await startFakeOpenAIServer();
});

afterEach(async () => {
  await server.close();
});

function recordingTiming(): { timing: Partial<RetryTiming>; delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    timing: {
      sleep: async (ms) => {
        delays.push(ms);
      },
      random: () => 0.5,
      now: () => Date.parse("2026-01-01T00:00:00Z"),
    },
  };
}

function model(overrides: Partial<OpenAIModelOptions> = {}) {
  return createOpenAIModel({
    model: "fake-model",
    baseURL: server.baseURL,
    apiKey: API_KEY,
    timing: recordingTiming().timing,
    ...overrides,
  });
}

async function collect(
  events: AsyncIterable<ModelEvent>,
): Promise<{ events: ModelEvent[]; error: unknown }> {
  const seen: ModelEvent[] = [];
  try {
    for await (const event of events) seen.push(event);
  } catch (error) {
    return { events: seen, error };
  }
  return { events: seen, error: undefined };
}

const USER_ONLY: HistoryItem[] = [{ role: "user", text: "Hello" }];

function requestBody(history: object[], tools: object[] = [ASK_TOOL_WIRE]) {
  return {
    model: "fake-model",
    messages: [{ role: "system", content: SYSTEM_PROMPT }, ...history],
    ...(tools.length > 0 ? { tools } : {}),
    stream: true,
  };
}

describe("createOpenAIModel", () => {
  it("streams a text-only reply as text deltas after sending the system prompt, the history and the tools", async () => {
    server.enqueue(textReply("Hel", "lo, ", "world"));
    const history: HistoryItem[] = [
      { role: "user", text: "Pick a package manager" },
      {
        role: "assistant",
        text: "",
        toolCalls: [{ callId: "call_1", name: "ask_user_question", arguments: '{"questions":[{"id":"pm","question":"Which?"}]}' }],
      },
      { role: "tool", callId: "call_1", name: "ask_user_question", text: '{"answers":[{"id":"pm","selected":["pnpm"]}]}', isError: false },
      { role: "assistant", text: "Using pnpm.", toolCalls: [] },
      { role: "user", text: "Thanks" },
    ];

    const result = await collect(model().step({ history, tools: [ASK_TOOL], signal: new AbortController().signal }));

    expect(result).toEqual({
      events: [
        { type: "text", delta: "Hel" },
        { type: "text", delta: "lo, " },
        { type: "text", delta: "world" },
      ],
      error: undefined,
    });
    expect(server.requests).toEqual([
      {
        method: "POST",
        path: "/v1/chat/completions",
        authorization: `Bearer ${API_KEY}`,
        body: requestBody([
          { role: "user", content: "Pick a package manager" },
          ...askRound("call_1", '{"questions":[{"id":"pm","question":"Which?"}]}', '{"answers":[{"id":"pm","selected":["pnpm"]}]}'),
          { role: "assistant", content: "Using pnpm." },
          { role: "user", content: "Thanks" },
        ]),
      },
    ]);
  });

  it("sends an error tool result with its exact text, keeps text beside tool calls and leaves out empty assistant rows and an empty tool list", async () => {
    server.enqueue(textReply("ok"));
    const history: HistoryItem[] = [
      { role: "user", text: "Go" },
      { role: "assistant", text: "", toolCalls: [] },
      { role: "assistant", text: "Let me ask.", toolCalls: [{ callId: "c9", name: "ask_user_question", arguments: "{}" }] },
      {
        role: "tool",
        callId: "c9",
        name: "ask_user_question",
        text: 'Error: ask_user_question was aborted before the user answered\n{"name":"UserInteractionError","code":"ASK_ABORTED"}',
        isError: true,
      },
    ];

    await collect(model().step({ history, tools: [], signal: new AbortController().signal }));

    expect(server.requests.map((request) => request.body)).toEqual([
      requestBody(
        [
          { role: "user", content: "Go" },
          {
            role: "assistant",
            content: "Let me ask.",
            tool_calls: [{ id: "c9", type: "function", function: { name: "ask_user_question", arguments: "{}" } }],
          },
          {
            role: "tool",
            tool_call_id: "c9",
            content: 'Error: ask_user_question was aborted before the user answered\n{"name":"UserInteractionError","code":"ASK_ABORTED"}',
          },
        ],
        [],
      ),
    ]);
  });

  it("assembles one ask_user_question call whose arguments arrive in several chunks", async () => {
    server.enqueue(
      toolCallReply(
        [{ index: 0, id: "call_ask", type: "function", function: { name: "ask_user_question", arguments: "" } }],
        [{ index: 0, function: { arguments: '{"questions":[{"id":"db",' } }],
        [{ index: 0, function: { arguments: '"question":"Which database?","options":[{"label":"SQLite (Recommended)"},' } }],
        [{ index: 0, function: { arguments: '{"label":"Postgres"}]}]}' } }],
      ),
    );

    const result = await collect(model().step({ history: USER_ONLY, tools: [ASK_TOOL], signal: new AbortController().signal }));

    expect(result).toEqual({
      events: [
        {
          type: "tool-call",
          call: {
            callId: "call_ask",
            name: "ask_user_question",
            arguments:
              '{"questions":[{"id":"db","question":"Which database?","options":[{"label":"SQLite (Recommended)"},{"label":"Postgres"}]}]}',
          },
        },
      ],
      error: undefined,
    });
    expect(server.requests.map((request) => request.body)).toEqual([requestBody([{ role: "user", content: "Hello" }])]);
  });

  it("yields two tool calls of one reply in index order when their fragments interleave, after the text", async () => {
    server.enqueue({
      kind: "stream",
      chunks: [
        { role: "assistant", content: "Two things." },
        { tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "present_plan", arguments: '{"pl' } }] },
        { tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "ask_user_question", arguments: '{"quest' } }] },
        { tool_calls: [{ index: 1, function: { arguments: 'an":"# Plan"}' } }, { index: 0, function: { arguments: 'ions":[]}' } }] },
        { finish_reason: "tool_calls" },
      ],
    });

    const result = await collect(model().step({ history: USER_ONLY, tools: [ASK_TOOL], signal: new AbortController().signal }));

    expect(result).toEqual({
      events: [
        { type: "text", delta: "Two things." },
        { type: "tool-call", call: { callId: "call_a", name: "ask_user_question", arguments: '{"questions":[]}' } },
        { type: "tool-call", call: { callId: "call_b", name: "present_plan", arguments: '{"plan":"# Plan"}' } },
      ],
      error: undefined,
    });
  });

  it("keeps calls apart when a server sends each new call at index 0 or without an index", async () => {
    server.enqueue(
      toolCallReply(
        [{ index: 0, id: "call_1", type: "function", function: { name: "ask_user_question", arguments: '{"questions":' } }],
        [{ index: 0, function: { arguments: "[]}" } }],
        [{ index: 0, id: "call_2", type: "function", function: { name: "present_plan", arguments: '{"plan":"# A"}' } }],
      ),
      toolCallReply([
        { id: "call_3", type: "function", function: { name: "present_plan", arguments: '{"plan":"# B"}' } },
        { id: "call_4", type: "function", function: { name: "ask_user_question", arguments: '{"questions":[]}' } },
      ]),
    );

    const first = await collect(model().step({ history: USER_ONLY, tools: [], signal: new AbortController().signal }));
    const second = await collect(model().step({ history: USER_ONLY, tools: [], signal: new AbortController().signal }));

    expect([first, second]).toEqual([
      {
        events: [
          { type: "tool-call", call: { callId: "call_1", name: "ask_user_question", arguments: '{"questions":[]}' } },
          { type: "tool-call", call: { callId: "call_2", name: "present_plan", arguments: '{"plan":"# A"}' } },
        ],
        error: undefined,
      },
      {
        events: [
          { type: "tool-call", call: { callId: "call_3", name: "present_plan", arguments: '{"plan":"# B"}' } },
          { type: "tool-call", call: { callId: "call_4", name: "ask_user_question", arguments: '{"questions":[]}' } },
        ],
        error: undefined,
      },
    ]);
  });

  it("retries a 429 after the delay its Retry-After gives in seconds, then streams the reply", async () => {
    const { timing, delays } = recordingTiming();
    server.enqueue(
      { kind: "status", status: 429, headers: { "retry-after": "2" }, body: { error: { message: "slow down" } } },
      textReply("done"),
    );

    const result = await collect(model({ timing }).step({ history: USER_ONLY, tools: [ASK_TOOL], signal: new AbortController().signal }));

    expect(result).toEqual({ events: [{ type: "text", delta: "done" }], error: undefined });
    expect(delays).toEqual([2000]);
    expect(server.requests.map((request) => request.body)).toEqual([
      requestBody([{ role: "user", content: "Hello" }]),
      requestBody([{ role: "user", content: "Hello" }]),
    ]);
  });

  it("honours a Retry-After HTTP date and caps it", async () => {
    const { timing, delays } = recordingTiming();
    server.enqueue(
      { kind: "status", status: 503, headers: { "retry-after": "Thu, 01 Jan 2026 00:00:04 GMT" }, body: { error: { message: "busy" } } },
      { kind: "status", status: 429, headers: { "retry-after": "Thu, 01 Jan 2026 01:00:00 GMT" }, body: { error: { message: "busy" } } },
      textReply("done"),
    );

    const result = await collect(
      model({ timing, backoff: { maxRetryAfterMs: 10_000 } }).step({ history: USER_ONLY, tools: [], signal: new AbortController().signal }),
    );

    expect(result).toEqual({ events: [{ type: "text", delta: "done" }], error: undefined });
    expect(delays).toEqual([4000, 10_000]);
  });

  it("backs off exponentially with full jitter on 5xx, then gives up with an error row naming the status and never the key", async () => {
    const { timing, delays } = recordingTiming();
    const failure = { kind: "status", status: 502, body: { error: { message: `upstream broke for key ${API_KEY}` } } } as const;
    server.enqueue(failure, failure, failure, failure);

    const result = await collect(
      model({ timing, maxRetries: 3, backoff: { baseDelayMs: 100, maxDelayMs: 300 } }).step({
        history: USER_ONLY,
        tools: [],
        signal: new AbortController().signal,
      }),
    );

    expect(delays).toEqual([50, 100, 150]);
    expect(server.requests).toHaveLength(4);
    expect(result).toEqual({
      events: [],
      error: new ModelError("The model API failed (502) and still did after 3 retries: upstream broke for key [redacted]", "MODEL_UNAVAILABLE"),
    });
    expect((result.error as ModelError).message).not.toContain(API_KEY);
  });

  it("ends with an error naming OPENAI_API_KEY on 401, without retrying and without the key", async () => {
    server.enqueue({ kind: "status", status: 401, body: { error: { message: `Incorrect API key provided: ${API_KEY}` } } });

    const result = await collect(model().step({ history: USER_ONLY, tools: [], signal: new AbortController().signal }));

    expect(result.events).toEqual([]);
    expect(result.error).toBeInstanceOf(ModelError);
    expect((result.error as ModelError).code).toBe("MODEL_AUTH");
    expect((result.error as ModelError).message).toBe("The model API rejected the key (401): check OPENAI_API_KEY");
    expect(String(result.error)).not.toContain(API_KEY);
    expect(server.requests).toHaveLength(1);
  });

  it("names the configured key variable on 403", async () => {
    server.enqueue({ kind: "status", status: 403, body: { error: { message: "forbidden" } } });

    const result = await collect(
      model({ keyVariable: "DEEPSEEK_API_KEY" }).step({ history: USER_ONLY, tools: [], signal: new AbortController().signal }),
    );

    expect(result.error).toEqual(new ModelError("The model API rejected the key (403): check DEEPSEEK_API_KEY", "MODEL_AUTH"));
    expect((result.error as ModelError).code).toBe("MODEL_AUTH");
  });

  it("says which model the API does not have on 404", async () => {
    server.enqueue({ kind: "status", status: 404, body: { error: { message: "The model `fake-model` does not exist" } } });

    const result = await collect(model().step({ history: USER_ONLY, tools: [], signal: new AbortController().signal }));

    expect((result.error as ModelError).code).toBe("MODEL_NOT_FOUND");
    expect((result.error as ModelError).message).toBe(
      `The model API at ${server.baseURL} has no model "fake-model" (404): check PARLEY_MODEL and the base URL (The model \`fake-model\` does not exist)`,
    );
    expect(server.requests).toHaveLength(1);
  });

  it("fails without retrying when the stream is cut after text was shown", async () => {
    server.enqueue({ kind: "stream", delayMs: 100, chunks: [{ role: "assistant", content: "Half a" }, { content: " sentence" }], ending: "cut" });

    const result = await collect(model().step({ history: USER_ONLY, tools: [], signal: new AbortController().signal }));

    expect(result.events).toEqual([
      { type: "text", delta: "Half a" },
      { type: "text", delta: " sentence" },
    ]);
    expect(result.error).toEqual(new ModelError("The model's reply was cut off mid-stream: the connection failed (terminated)", "MODEL_STREAM_CUT"));
    expect(server.requests).toHaveLength(1);
  });

  it("retries an error the API reports inside the stream before anything was shown, and fails on one after text", async () => {
    server.enqueue(
      { kind: "stream", chunks: [{ role: "assistant" }, { error: { message: "overloaded" } }] },
      { kind: "stream", delayMs: 50, chunks: [{ role: "assistant", content: "Par" }, { error: { message: `overloaded, key ${API_KEY}` } }] },
    );

    const result = await collect(model().step({ history: USER_ONLY, tools: [], signal: new AbortController().signal }));

    expect(result).toEqual({
      events: [{ type: "text", delta: "Par" }],
      error: new ModelError("The model API reported an error mid-reply: overloaded, key [redacted]", "MODEL_STREAM_ERROR"),
    });
    expect(server.requests).toHaveLength(2);
  });

  it("treats a stream that ends cleanly without a finish reason as cut", async () => {
    server.enqueue({ kind: "stream", chunks: [{ role: "assistant", content: "Half" }], ending: "eof" });

    const result = await collect(model().step({ history: USER_ONLY, tools: [], signal: new AbortController().signal }));

    expect(result.events).toEqual([{ type: "text", delta: "Half" }]);
    expect(result.error).toEqual(
      new ModelError("The model's reply was cut off mid-stream: the stream ended before the reply was complete", "MODEL_STREAM_CUT"),
    );
  });

  it("retries a stream cut before anything was yielded, dropping the partial tool call", async () => {
    server.enqueue(
      {
        kind: "stream",
        chunks: [
          { role: "assistant" },
          { tool_calls: [{ index: 0, id: "call_lost", type: "function", function: { name: "ask_user_question", arguments: '{"qu' } }] },
        ],
        ending: "cut",
      },
      toolCallReply([{ index: 0, id: "call_kept", type: "function", function: { name: "ask_user_question", arguments: "{}" } }]),
    );

    const result = await collect(model().step({ history: USER_ONLY, tools: [], signal: new AbortController().signal }));

    expect(result).toEqual({
      events: [{ type: "tool-call", call: { callId: "call_kept", name: "ask_user_question", arguments: "{}" } }],
      error: undefined,
    });
    expect(server.requests).toHaveLength(2);
  });

  it("retries when the connection drops before any response", async () => {
    const { timing, delays } = recordingTiming();
    server.enqueue({ kind: "hangup" }, textReply("back"));

    const result = await collect(model({ timing }).step({ history: USER_ONLY, tools: [], signal: new AbortController().signal }));

    expect(result).toEqual({ events: [{ type: "text", delta: "back" }], error: undefined });
    expect(delays).toEqual([250]);
    expect(server.requests).toHaveLength(2);
  });

  it("reports an API nobody listens on as a network error after its retries", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { timing, delays } = recordingTiming();

    const result = await collect(
      model({ baseURL: `http://127.0.0.1:${port}/v1`, timing, maxRetries: 2 }).step({
        history: USER_ONLY,
        tools: [],
        signal: new AbortController().signal,
      }),
    );

    expect(delays).toEqual([250, 500]);
    expect(result.error).toEqual(
      new ModelError(`Could not reach the model API at http://127.0.0.1:${port}/v1: connect ECONNREFUSED 127.0.0.1:${port}`, "MODEL_NETWORK"),
    );
    expect((result.error as ModelError).code).toBe("MODEL_NETWORK");
  });

  it("times out a stream that stalls before any chunk and retries it", async () => {
    server.enqueue({ kind: "stream", chunks: [], ending: "stall" }, textReply("late but fine"));

    const result = await collect(
      model({ timeoutMs: 500 }).step({ history: USER_ONLY, tools: [], signal: new AbortController().signal }),
    );

    expect(result).toEqual({ events: [{ type: "text", delta: "late but fine" }], error: undefined });
    expect(await server.nextClientClose()).toBe(0);
    expect(server.requests).toHaveLength(2);
  });

  it("reports a timeout after the retries run out", async () => {
    const stall: FakeReply = { kind: "stream", chunks: [{ role: "assistant" }], ending: "stall" };
    server.enqueue(stall, stall);

    const result = await collect(
      model({ timeoutMs: 150, maxRetries: 1 }).step({ history: USER_ONLY, tools: [], signal: new AbortController().signal }),
    );

    expect(result.error).toEqual(new ModelError(`The model API at ${server.baseURL} did not answer within 150 ms`, "MODEL_TIMEOUT"));
    expect((result.error as ModelError).code).toBe("MODEL_TIMEOUT");
  });

  it("cancels the HTTP request at once when the signal aborts a slow stream, and ends quietly", async () => {
    server.enqueue({
      kind: "stream",
      delayMs: 20,
      chunks: [{ role: "assistant", content: "one" }, ...Array.from({ length: 500 }, () => ({ content: " more" }))],
      ending: "stall",
    });
    const controller = new AbortController();
    const seen: ModelEvent[] = [];

    for await (const event of model().step({ history: USER_ONLY, tools: [], signal: controller.signal })) {
      seen.push(event);
      controller.abort();
    }

    expect(seen).toEqual([{ type: "text", delta: "one" }]);
    expect(await server.nextClientClose()).toBe(0);
    expect(server.requests).toHaveLength(1);
  });

  it("stops waiting for a retry when the signal aborts during the backoff", async () => {
    server.enqueue({ kind: "status", status: 429, headers: { "retry-after": "30" }, body: { error: { message: "later" } } });
    const controller = new AbortController();
    const stepping = collect(model({ timing: {} }).step({ history: USER_ONLY, tools: [], signal: controller.signal }));
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));

    controller.abort();

    expect(await stepping).toEqual({ events: [], error: undefined });
    expect(server.requests).toHaveLength(1);
  });
});
