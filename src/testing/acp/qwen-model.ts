import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/**
 * A scripted OpenAI-compatible model for Qwen Code in the e2e tests, on 127.0.0.1. Qwen makes side calls around each turn (a
 * memory extraction, a next-prompt suggestion starting `[SUGGESTION MODE`): they get a short text and never advance the script.
 * A main call (its tools include `ask_user_question`) is answered by the user's last message:
 *
 * | last message | reply |
 * |---|---|
 * | user, containing `QUESTION` | `ask_user_question` with one single-select: "Which database should the app use?" (SQLite, Postgres) |
 * | user, containing `WRITE <name>` | `write_file` of `<workspace>/<name>` with the text `hello from qwen\n` |
 * | a tool result | `done: <the result's text>` |
 * | anything else | `ok` |
 */
export const QWEN_QUESTION = "Which database should the app use?";
export const QWEN_WRITTEN_TEXT = "hello from qwen\n";

export interface QwenModelServer {
  baseURL: string;
  /** The main calls' last messages as text, in order. */
  mainCalls: string[];
  close(): Promise<void>;
}

type ChatMessage = { role?: string; content?: unknown };

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part === "object" && part !== null && "text" in part ? String((part as { text: unknown }).text) : "")).join("");
  return "";
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    request.on("error", reject);
  });
}

type Reply = { text: string } | { tool: string; args: unknown };

function send(response: ServerResponse, model: string, stream: boolean, reply: Reply, sequence: number) {
  const callId = `call_${sequence}`;
  const message = "tool" in reply ? { role: "assistant", content: null, tool_calls: [{ id: callId, type: "function", function: { name: reply.tool, arguments: JSON.stringify(reply.args) } }] } : { role: "assistant", content: reply.text };
  const finish = "tool" in reply ? "tool_calls" : "stop";
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (!stream) {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ id: `chatcmpl-${sequence}`, object: "chat.completion", created: 0, model, choices: [{ index: 0, message, finish_reason: finish }], usage }));
    return;
  }
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const chunk = (delta: unknown, finishReason: string | null) => `data: ${JSON.stringify({ id: `chatcmpl-${sequence}`, object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
  const delta = "tool" in reply ? { role: "assistant", tool_calls: [{ index: 0, ...message.tool_calls![0] }] } : { role: "assistant", content: reply.text };
  response.write(chunk(delta, null));
  response.write(chunk({}, finish));
  response.write(`data: ${JSON.stringify({ id: `chatcmpl-${sequence}`, object: "chat.completion.chunk", created: 0, model, choices: [], usage })}\n\n`);
  response.end("data: [DONE]\n\n");
}

/** Starts the scripted model; `workspace` is the folder `WRITE` writes into. */
export async function startQwenModel(workspace: string): Promise<QwenModelServer> {
  const mainCalls: string[] = [];
  let sequence = 0;
  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      let body: { model?: string; stream?: boolean; messages?: ChatMessage[]; tools?: { function?: { name?: string } }[] } = {};
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        body = {};
      }
      const messages = body.messages ?? [];
      const last = messages.at(-1) ?? {};
      const lastText = textOf(last.content);
      const tools = (body.tools ?? []).map((tool) => tool.function?.name);
      const main = tools.includes("ask_user_question") && !lastText.includes("[SUGGESTION MODE");
      let reply: Reply = { text: "ok" };
      if (main) {
        mainCalls.push(`${last.role ?? "?"}: ${lastText}`);
        const write = /WRITE (\S+)/.exec(lastText);
        if (last.role === "tool") reply = { text: `done: ${lastText.slice(0, 500)}` };
        else if (lastText.includes("QUESTION")) reply = { tool: "ask_user_question", args: { questions: [{ question: QWEN_QUESTION, header: "Database", options: [{ label: "SQLite", description: "One file" }, { label: "Postgres", description: "A server" }], multiSelect: false }] } };
        else if (write) reply = { tool: "write_file", args: { file_path: path.join(workspace, write[1]!), content: QWEN_WRITTEN_TEXT } };
      }
      send(response, body.model ?? "scripted", body.stream === true, reply, ++sequence);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    mainCalls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
