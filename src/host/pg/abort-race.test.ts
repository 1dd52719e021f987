import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import type { QuestionResolvedFrame } from "../../protocol/schemas";
import { createCleanup } from "../../testing/host/cleanup";
import { api, connect, createSession, startTestServer } from "../../testing/host/harness";
import { postgresBinDir } from "../../testing/host/postgres";
import { useTestPostgres } from "../../testing/host/postgres-suite";
import { UserInteractionError } from "../pending/user-interaction";

const ROUNDS = 60;
const SEED = 15_001;
/** How far apart the abort and the answer start, at most, either way round. */
const MAX_SKEW_MS = 6;

const cleanup = createCleanup();
afterEach(() => cleanup.closeAll());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(postgresBinDir() === null)("an abort racing a claim (in one process, two hosts)", () => {
  const postgres = useTestPostgres();

  it("[cluster-abort] settles each question once: either the answer is accepted or the call aborts, and every socket sees that outcome", { timeout: 120_000 }, async () => {
    const databaseUrl = await postgres().createDatabase();
    const owner = await startTestServer({ databaseUrl });
    const other = await startTestServer({ databaseUrl });
    cleanup.servers.push(owner, other);
    const sockets = await Promise.all([connect(owner.url), connect(other.url)]);
    cleanup.sockets.push(...sockets);
    const sessionId = await createSession(owner.url);
    const rounds = fc.sample(fc.record({ skewMs: fc.integer({ min: -MAX_SKEW_MS, max: MAX_SKEW_MS }), throughOwner: fc.boolean() }), { numRuns: ROUNDS, seed: SEED });
    const results: { round: number; accepted: boolean; settled: "answered" | "aborted"; frames: string[][] }[] = [];
    for (const [round, { skewMs, throughOwner }] of rounds.entries()) {
      const controller = new AbortController();
      let rpcId = "";
      const call = owner.userInteraction
        .ask({ questions: [{ id: "race", question: `Round ${round}?`, options: [{ label: "Yes" }, { label: "No" }] }], sessionId, signal: controller.signal, onRequested: (id) => (rpcId = id) })
        .then(
          () => "answered" as const,
          (error: unknown) => {
            if (error instanceof UserInteractionError && error.code === "ASK_ABORTED") return "aborted" as const;
            throw error;
          },
        );
      await Promise.all(sockets.map((socket) => socket.waitFor((frame) => frame.type === "question/requested" && frame.rpcId === rpcId)));
      const respond = async () => {
        if (skewMs < 0) await sleep(-skewMs);
        const receipt = await api((throughOwner ? owner : other).url, "/api/respond", { json: { type: "answer", rpcId, sessionId, answers: [{ id: "race", selected: ["Yes"] }] } });
        return (receipt.body as { accepted: boolean }).accepted;
      };
      const abort = async () => {
        if (skewMs > 0) await sleep(skewMs);
        controller.abort();
      };
      const [accepted, settled] = await Promise.all([respond(), call, abort()]);
      await Promise.all(sockets.map((socket) => socket.waitFor<QuestionResolvedFrame>((frame) => frame.type === "question/resolved" && frame.rpcId === rpcId)));
      // Another frame for the question would come right behind the first: give it the time to.
      await sleep(20);
      const frames = sockets.map((socket) => socket.frames.filter((frame) => frame.type === "question/resolved" && frame.rpcId === rpcId).map((frame) => (frame.type === "question/resolved" ? frame.outcome : "")));
      results.push({ round, accepted, settled, frames });
    }
    const expected = results.map(({ round, accepted }) => ({ round, accepted, settled: accepted ? "answered" : "aborted", frames: accepted ? [["answered"], ["answered"]] : [["aborted"], ["aborted"]] }));
    expect(results).toEqual(expected);
    const outcomes = new Set(results.map((result) => result.settled));
    expect([...outcomes].sort()).toEqual(["aborted", "answered"]);
  });
});
