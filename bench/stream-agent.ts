import { writeFileSync } from "node:fs";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { agent, methods, ndJsonStream, PROTOCOL_VERSION, RequestError, type AgentContext, type SessionUpdate } from "@agentclientprotocol/sdk";

/**
 * The stream bench's ACP agent, run by the host over stdio. `/ready` answers `ready`. `/bench-stream <chunks> <toolUpdates>
 * <intervalMs> <file>` sends `<chunks>` message chunks, the i-th reading `tok<i> `, one every `<intervalMs>` on a schedule
 * that does not drift, with `<toolUpdates>` tool-call updates spread evenly between them (a call started, then completed), and
 * writes to `<file>` the epoch time (timeOrigin + now()) at which each chunk was handed to the connection, as JSON.
 */

const epochNow = () => performance.timeOrigin + performance.now();
const sleepUntil = (epoch: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, epoch - epochNow())));

function toolUpdate(index: number, cwd: string): SessionUpdate {
  const call = Math.floor(index / 2);
  const toolCallId = `read-${call}`;
  if (index % 2 === 1) return { sessionUpdate: "tool_call_update", toolCallId, status: "completed", content: [{ type: "content", content: { type: "text", text: `${40 + call} lines` } }] };
  const file = path.join(cwd, "src", `part-${call}.ts`);
  return { sessionUpdate: "tool_call", toolCallId, title: `Read src/part-${call}.ts`, kind: "read", status: "in_progress", locations: [{ path: file }], rawInput: { file_path: file } };
}

async function stream(client: AgentContext, sessionId: string, cwd: string, argument: string[]) {
  const [chunks, toolUpdates, intervalMs, file] = [Number(argument[0]), Number(argument[1]), Number(argument[2]), argument[3]];
  if (!(chunks > 0) || !(toolUpdates >= 0) || !(intervalMs >= 0) || !file) throw RequestError.invalidParams({ argument });
  const update = (change: SessionUpdate) => client.notify(methods.client.session.update, { sessionId, update: change });
  const every = Math.max(1, Math.floor(chunks / (toolUpdates + 1)));
  const sent: number[] = [];
  const start = epochNow();
  let tools = 0;
  for (let index = 0; index < chunks; index++) {
    await sleepUntil(start + index * intervalMs);
    sent.push(epochNow());
    await update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `tok${index} ` } });
    if ((index + 1) % every === 0 && tools < toolUpdates) await update(toolUpdate(tools++, cwd));
  }
  while (tools < toolUpdates) await update(toolUpdate(tools++, cwd));
  writeFileSync(file, JSON.stringify({ sent }));
}

const sessions = new Map<string, string>();
let nextSession = 1;
const app = agent({ name: "parley-bench-stream-agent" });
app.onRequest(methods.agent.initialize, () => ({
  protocolVersion: PROTOCOL_VERSION,
  agentCapabilities: { loadSession: false, promptCapabilities: { image: false, audio: false, embeddedContext: false } },
  agentInfo: { name: "parley-bench-stream-agent", version: "1.0.0" },
  authMethods: [],
}));
app.onRequest(methods.agent.session.new, ({ params }) => {
  const sessionId = `bench-${nextSession++}`;
  sessions.set(sessionId, params.cwd);
  return { sessionId };
});
app.onRequest(methods.agent.session.prompt, async ({ params, client }) => {
  const cwd = sessions.get(params.sessionId);
  if (cwd === undefined) throw RequestError.resourceNotFound(params.sessionId);
  const text = params.prompt.map((block) => (block.type === "text" ? block.text : "")).join("").trim();
  const [command, ...argument] = text.split(/\s+/);
  if (command === "/bench-stream") await stream(client, params.sessionId, cwd, argument);
  else await client.notify(methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "ready" } } });
  return { stopReason: "end_turn" };
});
const connection = app.connect(ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>));
await connection.closed;
process.exit(0);
