import Database from "better-sqlite3";
import fc from "fast-check";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Message, QuestionRequestedFrame } from "../protocol/schemas";
import { DATABASE_FILE } from "./store";
import { api, connect, createSession } from "./testing/harness";
import { removeDataDir, startHostProcess, type HostProcess } from "./testing/host-process";

const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 100_000);
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 1);
const CHUNK_MS = 1000;
const LONG_TEXT = "The first third of a long reply. The second third arrives later. The last third never does.";
type CrashPoint = "streaming" | "question-pending" | "answer-accepted";

const hosts: HostProcess[] = [];
afterAll(async () => {
  for (const host of hosts) await host.kill("SIGKILL");
  if (hosts[0]) removeDataDir(hosts[0].dataDir);
});

function integrity(dataDir: string): string {
  const db = new Database(path.join(dataDir, DATABASE_FILE));
  try {
    return db.pragma("integrity_check", { simple: true }) as string;
  } finally {
    db.close();
  }
}

async function transcript(url: string, sessionId: string): Promise<Message[]> {
  return ((await api(url, `/api/sessions/${sessionId}`)).body as { messages: Message[] }).messages;
}

describe(`kill -9 at random points of a turn (CRASH_SEED=${SEED})`, () => {
  it("restarts on the same data dir with a sound database, no duplicated row, every unfinished row marked and the chat usable", { timeout: 60_000 + ROUNDS * 20_000 }, async () => {
    const points = fc.sample(fc.constantFrom<CrashPoint>("streaming", "question-pending", "answer-accepted"), { numRuns: ROUNDS, seed: SEED });
    const order: CrashPoint[] = [...new Set<CrashPoint>(["streaming", "question-pending", "answer-accepted"]), ...points];
    let host = await startHostProcess({ env: { PARLEY_SCRIPTED_CHUNK_MS: String(CHUNK_MS) } });
    hosts.push(host);
    for (const point of order) {
      const client = await connect(host.url);
      const sessionId = await createSession(host.url);
      let seen = "";
      if (point === "streaming") {
        await api(host.url, `/api/sessions/${sessionId}/messages`, { json: { text: `/echo ${LONG_TEXT}` } });
        const deltas = () => client.frames.flatMap((frame) => (frame.type === "message/delta" ? [frame.text] : []));
        await client.waitFor(() => deltas().length === 3, "the third delta");
        seen = deltas().join("");
        await new Promise((resolve) => setTimeout(resolve, 150));
      } else {
        const ask = { questions: [{ id: "constructor", question: "Keep going?", options: [{ label: "Yes" }, { label: "No" }] }] };
        await api(host.url, `/api/sessions/${sessionId}/messages`, { json: { text: `/ask ${JSON.stringify(ask)}` } });
        const asked = await client.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested");
        if (point === "answer-accepted") {
          const receipt = await api(host.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: [{ id: "constructor", selected: ["Yes"] }] } });
          expect(receipt.body).toEqual({ accepted: true });
        }
      }
      expect(await host.kill("SIGKILL")).toBe("SIGKILL");
      await client.closed;
      expect(integrity(host.dataDir)).toBe("ok");

      host = await startHostProcess({ dataDir: host.dataDir, env: { PARLEY_SCRIPTED_CHUNK_MS: "0" } });
      hosts.push(host);
      const rows = await transcript(host.url, sessionId);
      expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
      expect(rows.filter((row) => row.tool?.status === "running")).toEqual([]);
      const session = ((await api(host.url, `/api/sessions/${sessionId}`)).body as { session: { state: string } }).session;
      expect(session.state).toBe("idle");
      if (point === "streaming") {
        const reply = rows.find((row) => row.role === "assistant");
        expect(reply?.interrupted, JSON.stringify(rows)).toBe(true);
        expect(reply!.text!.length).toBeGreaterThan(0);
        expect(seen.startsWith(reply!.text!), `${JSON.stringify(reply!.text)} is not a prefix of ${JSON.stringify(seen)}`).toBe(true);
      } else {
        const toolRow = rows.find((row) => row.role === "tool")!;
        const tool = toolRow.tool!;
        if (tool.status === "stopped") expect({ code: tool.error?.code, interrupted: toolRow.interrupted }).toEqual({ code: "ASK_ABORTED", interrupted: true });
        else expect({ point, status: tool.status, result: tool.result }).toEqual({ point: "answer-accepted", status: "ok", result: '{"answers":[{"id":"constructor","selected":["Yes"]}]}' });
      }
      const usable = await connect(host.url);
      const from = usable.frames.length;
      await api(host.url, `/api/sessions/${sessionId}/messages`, { json: { text: "/echo still here" } });
      await usable.waitIdle(sessionId, from);
      expect((await transcript(host.url, sessionId)).at(-1)).toMatchObject({ role: "assistant", text: "still here" });
      await usable.close();
      if (point !== order.at(-1)) {
        await host.kill("SIGTERM");
        host = await startHostProcess({ dataDir: host.dataDir, env: { PARLEY_SCRIPTED_CHUNK_MS: String(CHUNK_MS) } });
        hosts.push(host);
      }
    }
  });
});
