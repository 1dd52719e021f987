import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { api, createTestHosts } from "../../testing/host/harness";
import { createFaultyStore } from "../../testing/host/faulty-store";
import { postgresBinDir } from "../../testing/host/postgres";
import { useTestPostgres } from "../../testing/host/postgres-suite";
import { openPgStore } from "./store";

const hosts = createTestHosts();
afterEach(() => hosts.closeAll());

describe.skipIf(postgresBinDir() === null)("a chat's turn across hosts when a write fails", { timeout: 60_000 }, () => {
  const postgres = useTestPostgres();

  it("[cluster-turns] a message whose write failed gives the chat's turn back, so any host takes the next message", async () => {
    const databaseUrl = await postgres().createDatabase();
    const faulty = createFaultyStore(await openPgStore({ url: databaseUrl, instance: randomUUID() }));
    const a = await hosts.startSynced({ store: faulty.store });
    const b = await hosts.startSynced({ databaseUrl });
    const sessionId = ((await api(a.server.url, "/api/sessions", { json: {} })).body as { session: { id: string } }).session.id;

    faulty.failFrom(0, "STORAGE_BUSY");
    const failed = await api(a.server.url, `/api/sessions/${sessionId}/messages`, { json: { text: "lost to a busy disk" } });
    expect([failed.status, (failed.body as { error: { code: string } }).error.code]).toEqual([503, "STORAGE_BUSY"]);
    faulty.heal();

    const mark = b.client.frames.length;
    const posted = await api(b.server.url, `/api/sessions/${sessionId}/messages`, { json: { text: "hello" } });
    expect(posted.status).toBe(202);
    await b.client.waitFor((frame, index) => index >= mark && frame.type === "question/requested" && frame.sessionId === sessionId, "the scripted model's question");
  });
});
