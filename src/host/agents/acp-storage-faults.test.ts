import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DownFrame, Message } from "../../protocol/schemas";
import { openStore } from "../store";
import { toWire } from "../sessions/transcript";
import { TEST_AGENT_ARGS } from "../../testing/acp/test-agent";
import { createFaultyStore } from "../../testing/host/faulty-store";
import { api, createTestHosts } from "../../testing/host/harness";
import { createTempDirs } from "../../testing/host/temp-dirs";

const hosts = createTestHosts();
const temp = createTempDirs("parley-acp-faults-");
afterEach(async () => {
  await hosts.closeAll();
  temp.removeAll();
});

/** The last version of every row of the session, as the tabs hold them once the frames are applied. */
function rowsTabsSee(frames: DownFrame[], sessionId: string): Message[] {
  const rows = new Map<string, Message>();
  for (const frame of frames) if (frame.type === "message/upserted" && frame.message.sessionId === sessionId) rows.set(frame.message.id, frame.message);
  return [...rows.values()];
}

/** Writes of a first `/stream` turn: the chat stamped, the message, the session row, then the agent's rows; each case fails from one on. */
const FAIL_FROM = [0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 40];

describe("an ACP agent's turn on a store that fails from any of its writes on", () => {
  it.each(FAIL_FROM)("[storage-errors] fails from write %i: the host keeps serving, the turn ends, and once storage is back the store holds every row as the tabs saw it", async (index) => {
    const workspace = temp.make();
    mkdirSync(path.join(workspace, "src"), { recursive: true });
    const faulty = createFaultyStore(openStore(":memory:"));
    const { server, client } = await hosts.startSynced({
      store: faulty.store,
      agents: { file: null, workspaces: [workspace], agents: [{ name: "test", title: "Test Agent", command: process.execPath, args: TEST_AGENT_ARGS, env: {}, disabled: false }] },
    });
    const created = await api(server.url, "/api/sessions", { json: { agent: "test", cwd: workspace } });
    const sessionId = (created.body as { session: { id: string } }).session.id;
    const from = client.frames.length;
    faulty.failFrom(index, "STORAGE_FULL");
    const posted = await api(server.url, `/api/sessions/${sessionId}/messages`, { json: { text: "/stream" } });
    if (posted.status === 202) await client.waitTurnEnd(sessionId, from);
    else expect(posted).toMatchObject({ status: 507, body: { error: { code: "STORAGE_FULL" } } });
    // The host still answers while storage fails, and says so.
    expect((await api(server.url, "/api/health")).body).toMatchObject({ storage: { state: faulty.failures > 0 ? "failing" : "ok" } });
    faulty.heal();
    const seen = rowsTabsSee(client.frames, sessionId);
    const stored = async () => (await faulty.store.listMessages(sessionId)).map(toWire);
    await expect.poll(stored, { timeout: 10_000 }).toEqual(seen);
    if (posted.status === 202) {
      // Told once that storage failed; the agent's own turn ran whenever its chat's session row (the third write) was written.
      const told = seen.filter((row) => row.role === "assistant" && row.failure?.code === "STORAGE_FULL");
      expect([told.length, seen.some((row) => row.role === "assistant" && row.text === "done")]).toEqual([faulty.failures > 0 ? 1 : 0, index > 2]);
    }
    // The chat takes another turn once storage is back.
    const again = client.frames.length;
    expect((await api(server.url, `/api/sessions/${sessionId}/messages`, { json: { text: "hello again" } })).status).toBe(202);
    await client.waitTurnEnd(sessionId, again);
  });
});
