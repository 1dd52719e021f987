import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { DownFrame } from "../protocol/schemas";
import { createMux, type MuxSocketConstructor } from "./mux";

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const END = { type: "session/deleted", sessionId: "end-of-batch" } as const;

const validFrame = fc.oneof(
  fc.constant({ type: "synced" }),
  fc.record({ type: fc.constant("hello"), protocol: fc.constant(1), hostId: fc.string({ maxLength: 8 }) }),
  fc.record({ type: fc.constant("message/delta"), sessionId: fc.string({ maxLength: 4 }), messageId: fc.string({ maxLength: 4 }), text: fc.string({ maxLength: 8 }) }),
  fc.record({ type: fc.constant("question/resolved"), rpcId: fc.string({ maxLength: 4 }), sessionId: fc.string({ maxLength: 4 }), outcome: fc.constantFrom("answered", "cancelled", "aborted", "lost") }),
);
const payload = fc.oneof(
  fc.string({ maxLength: 64 }).map((text) => ({ text, binary: false })),
  fc.jsonValue().map((value) => ({ text: JSON.stringify(value), binary: false })),
  fc.tuple(validFrame, fc.constantFrom("type", "protocol", "rpcId", "text", "extra"), fc.jsonValue()).map(([frame, key, value]) => ({ text: JSON.stringify({ ...frame, [key]: value }), binary: false })),
  validFrame.map((frame) => ({ text: JSON.stringify(frame), binary: false })),
  fc.uint8Array({ maxLength: 32 }).map((bytes) => ({ text: Buffer.from(bytes).toString("base64"), binary: true })),
);

describe("the mux client's parsing under arbitrary socket messages", () => {
  let server: WebSocketServer;
  let url: string;
  beforeAll(async () => {
    server = new WebSocketServer({ host: "127.0.0.1", port: 0, path: "/api/mux" });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    url = `ws://127.0.0.1:${(server.address() as { port: number }).port}/api/mux`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  });

  it("delivers exactly the messages the frame schema accepts, in order, drops the rest with a warning and stays online", { timeout: 60_000 + RUNS * 100 }, async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    let peer: WebSocket | null = null;
    server.on("connection", (socket) => {
      peer = socket;
    });
    const received: DownFrame[] = [];
    let batchDone: (() => void) | null = null;
    const statuses: string[] = [];
    const mux = createMux({
      url,
      WebSocket: WebSocket as unknown as MuxSocketConstructor,
      onFrame: (frame) => {
        if (frame.type === "session/deleted" && frame.sessionId === END.sessionId) batchDone?.();
        else received.push(frame);
      },
      onStatus: (status) => statuses.push(status),
      subscribeWake: () => () => undefined,
    });
    await vi.waitFor(() => expect(statuses).toEqual(["connecting", "online"]));
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(payload, { maxLength: 8 }), async (messages) => {
          received.length = 0;
          warn.mockClear();
          const done = new Promise<void>((resolve) => {
            batchDone = resolve;
          });
          for (const message of messages) peer!.send(message.binary ? Buffer.from(message.text, "base64") : message.text, { binary: message.binary });
          peer!.send(JSON.stringify(END));
          await done;
          const expected: DownFrame[] = [];
          for (const message of messages) {
            if (message.binary) continue;
            let json: unknown;
            try {
              json = JSON.parse(message.text);
            } catch {
              continue;
            }
            const parsed = DownFrame.safeParse(json);
            if (parsed.success) expected.push(parsed.data);
          }
          expect(received).toEqual(expected);
          expect(warn).toHaveBeenCalledTimes(messages.length - expected.length);
        }),
        { numRuns: RUNS },
      );
      expect(statuses).toEqual(["connecting", "online"]);
    } finally {
      mux.close();
      warn.mockRestore();
    }
  });
});
