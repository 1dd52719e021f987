import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DownFrame, Message, QuestionRequestedFrame, Session } from "../protocol/schemas";
import type { StorageCode } from "./storage-error";
import { openStore } from "./store";
import { createFaultyStore } from "../testing/host/faulty-store";
import { createCleanup } from "../testing/host/cleanup";
import { api, connect, createSession, startTestServer } from "../testing/host/harness";

const ASK = `/ask ${JSON.stringify({ questions: [{ id: "pkg", question: "Which package manager?", options: [{ label: "pnpm" }, { label: "npm" }] }] })}`;
const STATUS: Record<StorageCode, number> = { STORAGE_FULL: 507, STORAGE_READONLY: 503, STORAGE_BUSY: 503, STORAGE_FAILED: 500 };
/** Transcript writes of one whole `/ask` turn with an answer (9, the answer's own write among them), and one past the end, where nothing fails. */
const WRITES_IN_TURN = 10;

const cleanup = createCleanup();
afterEach(() => cleanup.closeAll());

/** The last version of every row and of the session, as the tabs hold them once the frames are applied. */
function whatTabsSee(frames: DownFrame[], sessionId: string) {
  const rows = new Map<string, Message>();
  let session: Session | null = null;
  for (const frame of frames) {
    if (frame.type === "message/upserted" && frame.message.sessionId === sessionId) rows.set(frame.message.id, frame.message);
    if (frame.type === "session/upserted" && frame.session.id === sessionId) session = frame.session;
  }
  return { rows: [...rows.values()], session };
}

async function waitFor(check: () => Promise<boolean>, label: string) {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${label}`);
}

describe("a store that fails at any write of a turn", () => {
  const cases: [number, StorageCode][] = [
    ...Array.from({ length: WRITES_IN_TURN }, (_, index): [number, StorageCode] => [index, "STORAGE_FULL"]),
    [0, "STORAGE_READONLY"],
    [4, "STORAGE_READONLY"],
    [2, "STORAGE_BUSY"],
    [5, "STORAGE_BUSY"],
  ];

  it.each(cases)("[storage-errors] fails at write %i with %s: the user is told, an answer is refused unless written, no row stays running once storage is back", async (index, code) => {
    const faulty = createFaultyStore(openStore(":memory:"));
    const server = await startTestServer({ store: faulty.store });
    cleanup.servers.push(server);
    const client = await connect(server.url);
    cleanup.sockets.push(client);
    const sessionId = await createSession(server.url);
    faulty.failFrom(index, code);
    /** The answer was refused because its write failed: storage was healed, and the same question was answered again. */
    let refusedAnswer = false;

    const posted = await api(server.url, `/api/sessions/${sessionId}/messages`, { json: { text: ASK } });
    if (posted.status !== 202) {
      expect(posted).toMatchObject({ status: STATUS[code], body: { error: { code } } });
      expect(whatTabsSee(client.frames, sessionId).rows).toEqual([]);
      // The chat's row as the tabs hold it is the stored one, whichever of the post's writes failed.
      const stored = await faulty.store.getSession(sessionId);
      await client.waitFor((frame) => frame.type === "session/upserted" && frame.session.id === sessionId && frame.session.updatedAt === stored?.updatedAt);
      expect(whatTabsSee(client.frames, sessionId).session).toMatchObject({ title: stored?.title, updatedAt: stored?.updatedAt });
    } else {
      await waitFor(async () => {
        const asked = client.frames.find((frame): frame is QuestionRequestedFrame => frame.type === "question/requested");
        const idle = whatTabsSee(client.frames, sessionId).session?.state === "idle";
        if (asked && !idle && !client.frames.some((frame) => frame.type === "question/resolved")) {
          const receipt = await api(server.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: [{ id: "pkg", selected: ["pnpm"] }] } });
          if (receipt.status === 200) expect(receipt.body).toEqual({ accepted: true });
          else {
            // Not written, so not accepted: the storage error, and the question still waits for the same answer.
            expect([refusedAnswer, receipt.status, receipt.body]).toEqual([false, STATUS[code], { error: { code, message: expect.any(String) } }]);
            const replay = await connect(server.url);
            await replay.close();
            expect(replay.frames.filter((frame) => frame.type === "question/requested").map((frame) => (frame as QuestionRequestedFrame).rpcId)).toEqual([asked.rpcId]);
            refusedAnswer = true;
            faulty.heal();
          }
        }
        return idle;
      }, "the turn to end");
      const seen = whatTabsSee(client.frames, sessionId);
      expect(seen.rows.filter((row) => row.tool?.status === "running")).toEqual([]);
      expect(seen.session?.state).toBe("idle");
      const errorRows = seen.rows.filter((row) => row.role === "assistant" && row.failure?.code === code && row.text?.startsWith(`Error: ${code}: `));
      expect(errorRows.length, faulty.writes.join(" ")).toBe(faulty.failures > 0 && !refusedAnswer ? 1 : 0);
    }
    const health = await api(server.url, "/api/health");
    if (faulty.failures > 0 && !refusedAnswer) {
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ ok: false, storage: { state: "failing", code } });
    } else {
      expect(health.status).toBe(200);
    }
    faulty.heal();
    // A row the failed turn left running or streaming is written as the tabs saw it as soon as storage works again.
    await waitFor(async () => (await faulty.store.listMessages(sessionId)).every((row) => row.tool?.status !== "running" && row.streaming !== true), "the stored rows to settle");
    expect((await api(server.url, "/api/sessions", { json: {} })).status).toBe(201);
    expect((await api(server.url, "/api/health")).body).toMatchObject({ ok: true, storage: { state: "ok" } });
  });
});

function canMountTmpfs(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(path.join(tmpdir(), "parley-tmpfs-probe-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe], { stdio: "ignore" });
    execFileSync("umount", [probe], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

describe("a real full disk (a small tmpfs data dir; needs root)", () => {
  const mountable = canMountTmpfs();

  it.runIf(mountable)("refuses an answer it cannot write with STORAGE_FULL, keeps the question pending, and takes it once space is freed, across a restart", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "parley-full-"));
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", dataDir]);
    let server = await startTestServer({ dataDir });
    let client = await connect(server.url);
    try {
      const sessionId = await createSession(server.url);
      await api(server.url, `/api/sessions/${sessionId}/messages`, { json: { text: ASK } });
      const asked = await client.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested");
      const filler = path.join(dataDir, "filler");
      try {
        writeFileSync(filler, Buffer.alloc(8 * 1024 * 1024));
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toBe("ENOSPC");
      }
      const answer = { type: "answer", rpcId: asked.rpcId, sessionId, answers: [{ id: "pkg", selected: ["npm"] }] };
      const refused = await api(server.url, "/api/respond", { json: answer });
      expect([refused.status, refused.body]).toEqual([507, { error: { code: "STORAGE_FULL", message: `the disk holding the data dir (${dataDir}) is full: free some space; what was not saved is lost` } }]);
      expect(client.frames.filter((frame) => frame.type === "question/resolved")).toEqual([]);
      rmSync(filler);
      expect((await api(server.url, "/api/respond", { json: answer })).body).toEqual({ accepted: true });
      await client.waitTurnEnd(sessionId, 0);
      await client.close();
      await server.close();
      server = await startTestServer({ dataDir });
      client = await connect(server.url);
      const stored = await api(server.url, `/api/sessions/${sessionId}`);
      const tools = (stored.body as { messages: Message[] }).messages.filter((row) => row.role === "tool");
      expect(tools.map((row) => [row.tool?.status, row.tool?.result, row.interrupted ?? false])).toEqual([["ok", '{"answers":[{"id":"pkg","selected":["npm"]}]}', false]]);
    } finally {
      await client.close();
      await server.close();
      execFileSync("umount", [dataDir]);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
