import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One streamed tool-call fragment, as OpenAI sends it inside `delta.tool_calls`. */
export interface FakeToolCallDelta {
  /** Left out to imitate servers that omit it. */
  index?: number;
  id?: string;
  type?: "function";
  function?: { name?: string; arguments?: string };
}

/** One SSE chunk of a streamed reply: a delta for choice 0 and, on the last one, a finish reason; or an in-stream error. */
export interface FakeChunk {
  error?: { message: string };
  role?: "assistant";
  content?: string;
  tool_calls?: FakeToolCallDelta[];
  finish_reason?: "stop" | "tool_calls" | "length";
}

/**
 * What the server answers to one request:
 * - `stream`: SSE chunks, `delayMs` apart, then an ending: `done` (`[DONE]` and a clean end),
 *   `eof` (a clean end with no `[DONE]`), `cut` (the socket is destroyed) or `stall` (nothing more, ever);
 * - `status`: a plain JSON error response;
 * - `hangup`: the socket is destroyed before any response.
 */
export type FakeReply =
  | { kind: "stream"; chunks: FakeChunk[]; delayMs?: number; ending?: "done" | "eof" | "cut" | "stall" }
  | { kind: "status"; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: "hangup" };

/** A request as the fake server received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | null;
  body: unknown;
}

export interface FakeOpenAIServer {
  /** `http://127.0.0.1:PORT/v1`, ready for `OPENAI_BASE_URL`. */
  baseURL: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Queues the replies for the next requests, first in first out. */
  enqueue(...replies: FakeReply[]): void;
  /** Resolves with the request's index when a client closes its connection before its reply ended. */
  nextClientClose(): Promise<number>;
  close(): Promise<void>;
}

/** A streamed text reply split into the given deltas. */
export function textReply(...deltas: string[]): FakeReply {
  return {
    kind: "stream",
    chunks: [{ role: "assistant" }, ...deltas.map((content) => ({ content })), { finish_reason: "stop" }],
  };
}

/** A streamed reply made of tool-call fragments, ending with `finish_reason: "tool_calls"`. */
export function toolCallReply(...fragments: FakeToolCallDelta[][]): FakeReply {
  return {
    kind: "stream",
    chunks: [{ role: "assistant" }, ...fragments.map((tool_calls) => ({ tool_calls })), { finish_reason: "tool_calls" }],
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    request.on("error", reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function chunkFrame(sequence: number, model: string, chunk: FakeChunk): string {
  if (chunk.error) return `data: ${JSON.stringify({ error: chunk.error })}\n\n`;
  const { finish_reason: finishReason, ...delta } = chunk;
  const payload = {
    id: `chatcmpl-fake-${sequence}`,
    object: "chat.completion.chunk",
    created: 0,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason ?? null }],
  };
  return `data: ${JSON.stringify(payload)}\n\n`;
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Starts a scriptable OpenAI-compatible chat-completions server on 127.0.0.1, on a free port. */
export async function startFakeOpenAIServer(): Promise<FakeOpenAIServer> {
  const requests: RecordedRequest[] = [];
  const queue: FakeReply[] = [];
  const closeWaiters: ((index: number) => void)[] = [];
  const earlyCloses: number[] = [];

  function noteClientClose(index: number): void {
    const waiter = closeWaiters.shift();
    if (waiter) waiter(index);
    else earlyCloses.push(index);
  }

  async function stream(
    index: number,
    response: ServerResponse,
    model: string,
    reply: Extract<FakeReply, { kind: "stream" }>,
  ): Promise<void> {
    let finished = false;
    response.on("close", () => {
      if (!finished) noteClientClose(index);
    });
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    response.flushHeaders();
    for (const chunk of reply.chunks) {
      if (reply.delayMs) await wait(reply.delayMs);
      if (response.destroyed) return;
      response.write(chunkFrame(index, model, chunk));
    }
    if (reply.delayMs) await wait(reply.delayMs);
    if (response.destroyed) return;
    const ending = reply.ending ?? "done";
    if (ending === "stall") return;
    finished = true;
    if (ending === "cut") {
      response.socket?.destroy();
      return;
    }
    response.end(ending === "done" ? "data: [DONE]\n\n" : undefined);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = parseJson(await readBody(request));
    const index = requests.length;
    requests.push({
      method: request.method ?? "",
      path: request.url ?? "",
      authorization: request.headers.authorization ?? null,
      body,
    });
    const reply = queue.shift();
    if (!reply) {
      response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: `fake server: no reply scripted for request ${index}` } }));
      return;
    }
    switch (reply.kind) {
      case "hangup":
        request.socket.destroy();
        return;
      case "status":
        response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
        response.end(JSON.stringify(reply.body));
        return;
      case "stream": {
        const model = typeof body === "object" && body !== null && "model" in body ? String(body.model) : "";
        await stream(index, response, model, reply);
        return;
      }
      default:
        reply satisfies never;
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue(...replies) {
      queue.push(...replies);
    },
    nextClientClose() {
      const early = earlyCloses.shift();
      if (early !== undefined) return Promise.resolve(early);
      return new Promise((resolve) => closeWaiters.push(resolve));
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** The messages a model is sent back for one ask_user_question call and its result: the assistant's call, then the tool message. */
export function askRound(callId: string, args: string, result: string) {
  return [
    { role: "assistant", content: null, tool_calls: [{ id: callId, type: "function", function: { name: "ask_user_question", arguments: args } }] },
    { role: "tool", tool_call_id: callId, content: result },
  ];
}
