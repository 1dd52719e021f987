import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, expect, it } from "vitest";
import WebSocket from "ws";
import type { DownFrame } from "../../protocol/schemas";
import { createDownlink, type Downlink } from "./downlink";

const deletedFrame = (index: number): DownFrame => ({
  type: "session/deleted",
  sessionId: `session-${index}`,
});

let server: Server | null = null;
/** How many writes each connection's stream handed the operating system, in the order the connections came. */
let writes: number[] = [];
let downlink: Downlink | null = null;
const clients: WebSocket[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.terminate();
  await downlink?.close();
  downlink = null;
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

async function start(replay: DownFrame[]) {
  const opened = createDownlink({ hostId: "host-a", fence: { allowedHosts: [], allowedOrigins: [] }, replay: () => replay, log: () => undefined });
  downlink = opened;
  const listening = createServer((_request, response) => response.writeHead(404).end());
  writes = [];
  listening.on("upgrade", (request, socket: Socket, head) => {
    const index = writes.push(0) - 1;
    // The stream's two write hooks are where its buffered bytes go to the connection, one call each time.
    for (const hook of ["_write", "_writev"] as const) {
      const original = socket[hook]!.bind(socket) as (...args: unknown[]) => void;
      Object.assign(socket, {
        [hook]: (...args: unknown[]) => {
          writes[index]!++;
          original(...args);
        },
      });
    }
    opened.handleUpgrade(request, socket, head);
  });
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", () => resolve()));
  server = listening;
  return { downlink: opened, url: `ws://127.0.0.1:${(listening.address() as AddressInfo).port}/api/mux` };
}

/** A tab's socket that keeps every frame, and every chunk of bytes its connection read. */
async function connect(url: string) {
  const frames: DownFrame[] = [];
  const client = new WebSocket(url);
  clients.push(client);
  client.on("message", (data) => frames.push(JSON.parse(String(data)) as DownFrame));
  await new Promise((resolve, reject) => client.once("open", resolve).once("error", reject));
  return { client, frames };
}

const types = (frames: DownFrame[]) => frames.map((frame) => (frame.type === "session/deleted" ? frame.sessionId : frame.type));

it("sends a socket its hello, every pending frame in order and synced, however many there are, in one write", async () => {
  const replay = Array.from({ length: 500 }, (_, index) => deletedFrame(index));
  const { url } = await start(replay);
  const { frames } = await connect(url);
  await expect.poll(() => frames.length, { timeout: 10_000 }).toBe(502);
  expect(types(frames)).toEqual(["hello", ...replay.map((_, index) => `session-${index}`), "synced"]);
  // The upgrade's response, then the 502 frames together.
  expect(writes).toEqual([2]);
});

/** Two tabs past their hello and synced, and how many writes each connection made since then. */
async function twoSyncedTabs() {
  const { downlink, url } = await start([]);
  const first = await connect(url);
  const second = await connect(url);
  await expect.poll(() => [first.frames.length, second.frames.length]).toEqual([2, 2]);
  const writesBefore = [...writes];
  return { downlink, first, second, writesSince: () => writes.map((count, index) => count - writesBefore[index]!) };
}

it("writes each broadcast frame on every socket before broadcast returns, so a request's frames precede its response", async () => {
  const { downlink, first, second, writesSince } = await twoSyncedTabs();
  downlink.broadcast(deletedFrame(1));
  expect(writesSince()).toEqual([1, 1]);
  downlink.broadcast(deletedFrame(2));
  expect(writesSince()).toEqual([2, 2]);
  await expect.poll(() => [types(first.frames), types(second.frames)]).toEqual([
    ["hello", "synced", "session-1", "session-2"],
    ["hello", "synced", "session-1", "session-2"],
  ]);
});

it("holds what a burst broadcasts until it ends, then writes it to each socket in one write, in order, before hold returns", async () => {
  const { downlink, first, second, writesSince } = await twoSyncedTabs();
  const during: number[][] = [];
  downlink.hold(() => {
    downlink.broadcast(deletedFrame(1));
    downlink.broadcast(deletedFrame(2));
    during.push(writesSince());
  });
  expect(during).toEqual([[0, 0]]);
  expect(writesSince()).toEqual([1, 1]);
  downlink.broadcast(deletedFrame(3));
  expect(writesSince()).toEqual([2, 2]);
  await expect.poll(() => [types(first.frames), types(second.frames)]).toEqual([
    ["hello", "synced", "session-1", "session-2", "session-3"],
    ["hello", "synced", "session-1", "session-2", "session-3"],
  ]);
});

it("writes what a burst broadcast before the work's error reaches the caller", async () => {
  const { downlink, url } = await start([]);
  const tab = await connect(url);
  await expect.poll(() => tab.frames.length).toBe(2);
  expect(() =>
    downlink.hold(() => {
      downlink.broadcast(deletedFrame(1));
      throw new Error("the work failed");
    }),
  ).toThrow("the work failed");
  downlink.broadcast(deletedFrame(2));
  await expect.poll(() => types(tab.frames)).toEqual(["hello", "synced", "session-1", "session-2"]);
});

it("goes on broadcasting to the other sockets when one is gone", async () => {
  const { downlink, url } = await start([]);
  const gone = await connect(url);
  const staying = await connect(url);
  await expect.poll(() => staying.frames.length).toBe(2);
  downlink.broadcast(deletedFrame(1));
  gone.client.terminate();
  await new Promise((resolve) => gone.client.once("close", resolve));
  downlink.broadcast(deletedFrame(2));
  downlink.broadcast(deletedFrame(3));
  await expect.poll(() => types(staying.frames)).toEqual(["hello", "synced", "session-1", "session-2", "session-3"]);
});
