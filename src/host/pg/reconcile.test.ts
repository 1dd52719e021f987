import { afterEach, describe, expect, it } from "vitest";
import type { DownFrame, QuestionRequestedFrame } from "../../protocol/schemas";
import { postgresBinDir } from "../../testing/host/postgres";
import { useTestPostgres } from "../../testing/host/postgres-suite";
import { reconcile } from "./reconcile";
import { openPgStore, type PgStore } from "./store";

const ME = "back-host";
const asked = (rpcId: string): QuestionRequestedFrame => ({ type: "question/requested", rpcId, sessionId: "s1", questions: [{ id: "go", question: "Go?" }], createdAt: "2026-12-01T10:00:00.000Z" });

describe.skipIf(postgresBinDir() === null)("reconcile after an outage [cluster-lease]", { timeout: 30_000 }, () => {
  const postgres = useTestPostgres();
  const stores: PgStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });

  it("aborts a question this host no longer holds, answers one claimed elsewhere, and leaves one asked while it read the rows", async () => {
    const store = await openPgStore({ url: await postgres().createDatabase(), instance: ME });
    stores.push(store);
    const answer = { type: "answer", rpcId: "claimed", answers: [{ id: "go", selected: ["yes"] }] };
    await store.query(
      "INSERT INTO pending (rpc_id, session_id, owner, frame, state, response) VALUES ('gone', 's1', $1, '{}', 'pending', NULL), ('claimed', 's1', $1, '{}', 'answered', $2), ('new', 's1', $1, '{}', 'pending', NULL)",
      [ME, JSON.stringify(answer)],
    );
    const published: DownFrame[] = [];
    const answered: unknown[] = [];
    // What the pending table holds as the catch-up goes: `new` is asked (its row written) after the first look.
    const looks = [[asked("claimed")], [asked("claimed"), asked("new")]];
    let look = 0;
    await reconcile({
      store,
      instance: ME,
      log: () => undefined,
      own: () => looks[Math.min(look++, looks.length - 1)]!,
      ownTurns: () => [],
      publish: (frame) => void published.push(frame),
      published: async () => undefined,
      answer: (body) => void answered.push(body),
    });
    expect(published).toEqual([{ type: "question/resolved", rpcId: "gone", sessionId: "s1", outcome: "aborted" }]);
    expect(answered).toEqual([answer]);
  });
});
