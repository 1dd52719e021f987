// The browser bench's sender, a process of its own: it posts what the bench asks for and notes, on its own clock, the
// moment each request is written to its socket, so an arrival's send time is never read inside the host's event loop.
// It also holds an /api/mux socket and notes when the host's question/requested frame for a posted question reaches it.
// Input, one JSON line each: { id, url, body, question? }. Output, one JSON line each:
// { id, status, sentAt, frameAt?, rpcId?, sessionId? } or { id, error }. Epoch milliseconds (timeOrigin + now()).
import { Agent, request } from "node:http";
import { createInterface } from "node:readline";
import { WebSocket } from "ws";

const FRAME_TIMEOUT_MS = 15_000;
const epochNow = () => performance.timeOrigin + performance.now();
const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
/** Question text → the callback that takes its frame. */
const waiting = new Map();

const reply = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

function post(url, body) {
  return new Promise((resolve, reject) => {
    let sentAt = 0;
    const outgoing = request(url, { method: "POST", agent: keepAlive, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (response) => {
      response.resume();
      response.once("end", () => resolve({ status: response.statusCode, sentAt }));
    });
    outgoing.once("error", reject);
    outgoing.setTimeout(FRAME_TIMEOUT_MS, () => outgoing.destroy(new Error(`no answer from ${url}`)));
    outgoing.once("socket", (socket) => {
      const write = () => {
        sentAt = epochNow();
        outgoing.end(body);
      };
      if (socket.connecting) socket.once("connect", write);
      else write();
    });
  });
}

function frameFor(question) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(question);
      reject(new Error(`no question/requested frame for ${JSON.stringify(question)}`));
    }, FRAME_TIMEOUT_MS);
    waiting.set(question, (frame) => {
      clearTimeout(timer);
      resolve(frame);
    });
  });
}

async function handle(line) {
  const { id, url, body, question } = JSON.parse(line);
  try {
    const frame = question === undefined ? null : frameFor(question);
    const { status, sentAt } = await post(url, body);
    reply({ id, status, sentAt, ...(frame ? await frame : {}) });
  } catch (error) {
    reply({ id, error: String(error) });
  }
}

const socket = new WebSocket(process.argv[2]);
socket.on("message", (data) => {
  const frame = JSON.parse(String(data));
  if (frame.type === "synced") reply({ ready: true });
  if (frame.type !== "question/requested") return;
  const take = waiting.get(frame.questions?.[0]?.question);
  if (!take) return;
  waiting.delete(frame.questions[0].question);
  take({ frameAt: epochNow(), rpcId: frame.rpcId, sessionId: frame.sessionId });
});
socket.once("error", (error) => {
  process.stderr.write(`timed-post: ${error}\n`);
  process.exit(1);
});
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => void handle(line));
lines.once("close", () => {
  socket.close();
  keepAlive.destroy();
});
