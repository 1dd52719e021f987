import { get } from "node:http";
import { connect } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../store";
import { api, startTestServer } from "../../testing/host/harness";
import { createTempDirs } from "../../testing/host/temp-dirs";

const temp = createTempDirs("parley-shutdown-post-");
afterAll(() => temp.removeAll());

/** A raw POST whose body is held back after its first byte until `finish` is called; `response` is the response's text. */
async function heldPost(url: string, path: string, body: string) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = "";
  const response = new Promise<string>((resolve, reject) => {
    socket.on("data", (chunk) => (received += chunk.toString("utf8")));
    socket.on("close", () => resolve(received));
    socket.on("error", reject);
  });
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  socket.write(`POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 1)}`);
  // A request on a connection of its own, answered: the host took this connection after the held one and read it after.
  await new Promise<void>((resolve, reject) => get(`${url}/api/health`, { agent: false }, (answer) => answer.resume().on("end", resolve)).on("error", reject));
  return { response, finish: () => socket.write(body.slice(1)) };
}

/** The store of `dataDir`, whose insert of a message with this text waits until `release` is called. */
function gatedStore(dataDir: string, text: string) {
  const inner = openStore(dataDir);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const waiting = new Promise<void>((resolve) => (reached = resolve));
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      if (property !== "insertMessage") return Reflect.get(target, property, receiver);
      return async (message: Parameters<Store["insertMessage"]>[0]) => {
        if (message.text === text) {
          reached();
          await released;
        }
        return target.insertMessage(message);
      };
    },
  });
  return { store, waiting, release };
}

const messagesOf = async (url: string, sessionId: string) => ((await api(url, `/api/sessions/${sessionId}`)).body as { messages: { role: string; text?: string }[] }).messages;

describe("messages posted as the host stops", () => {
  it("one taken before the stop is written and answered 202, its chat idle after a restart; one whose body arrives after is refused 503 with nothing written", async () => {
    const dataDir = temp.make();
    const gated = gatedStore(dataDir, "/echo taken before the stop");
    const server = await startTestServer({ store: gated.store });
    const sessionOf = async () => ((await api(server.url, "/api/sessions", { json: {} })).body as { session: { id: string } }).session.id;
    const [first, second] = [await sessionOf(), await sessionOf()];
    const late = await heldPost(server.url, `/api/sessions/${second}/messages`, JSON.stringify({ text: "/echo sent as the host stops" }));
    const taken = api(server.url, `/api/sessions/${first}/messages`, { json: { text: "/echo taken before the stop" } });
    await gated.waiting;
    const closed = server.close();
    late.finish();
    const refused = await late.response;
    expect(refused.split("\r\n")[0]).toBe("HTTP/1.1 503 Service Unavailable");
    expect(refused.split("\r\n\r\n")[1]).toBe(JSON.stringify({ error: { code: "INTERNAL", message: "the host is shutting down: nothing was written; send the message again once it is back" } }));
    gated.release();
    expect((await taken).status).toBe(202);
    await closed;

    const again = await startTestServer({ store: openStore(dataDir) });
    try {
      expect(await messagesOf(again.url, second)).toEqual([]);
      const rows = await messagesOf(again.url, first);
      expect(rows[0]).toMatchObject({ role: "user", text: "/echo taken before the stop" });
      expect(((await api(again.url, `/api/sessions/${first}`)).body as { session: { state: string } }).session.state).toBe("idle");
    } finally {
      await again.close();
    }
  });
});
