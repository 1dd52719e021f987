import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DownFrame, QuestionItem } from "../../protocol/schemas";
import type { AnswerRule } from "./answer-rule";
import { createPendingTable, type AcceptedAnswer, type PendingTableOptions } from "./pending-table";
import { StorageError } from "../storage-error";
import { judgeAnswerRule } from "../answer-judge";
import { answeredBatch, mutate, mutation } from "../../testing/host/answer-arbitraries";
import { UserInteractionError, type AskResult } from "./user-interaction";

function setup(options: Partial<PendingTableOptions> = {}) {
  const frames: DownFrame[] = [];
  const changes: string[] = [];
  const table = createPendingTable({ broadcast: (frame) => frames.push(frame), log: () => undefined, ...options });
  table.onChange((sessionId) => changes.push(sessionId));
  return { table, frames, changes };
}

const question: QuestionItem = { id: "pkg", question: "Which?", options: [{ label: "pnpm" }, { label: "npm" }] };

function settled(promise: Promise<AskResult>) {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => {
      if (error instanceof UserInteractionError) return { error: { code: error.code, message: error.message } };
      throw error;
    },
  );
}

describe("pending table", () => {
  it("[pending-register-first] registers the question before broadcasting question/requested", () => {
    const frames: DownFrame[] = [];
    let pendingWhenBroadcast = -1;
    const table = createPendingTable({
      broadcast: (frame) => {
        frames.push(frame);
        pendingWhenBroadcast = table.replay().length;
      },
      log: () => undefined,
    });
    void table.ask({ questions: [question], sessionId: "s1" });
    expect(pendingWhenBroadcast).toBe(1);
    expect(frames).toEqual([{ type: "question/requested", rpcId: table.replay()[0]!.rpcId, sessionId: "s1", questions: [question], createdAt: table.replay()[0]!.createdAt }]);
  });

  it("announces a question and its resolution each in one burst: the session's change and the frame together", async () => {
    const events: string[] = [];
    let depth = 0;
    const table = createPendingTable({
      broadcast: (frame) => events.push(`${frame.type} in ${depth}`),
      burst(work) {
        events.push("burst");
        depth++;
        try {
          work();
        } finally {
          depth--;
        }
      },
      log: () => undefined,
    });
    table.onChange((sessionId) => events.push(`changed ${sessionId} in ${depth}`));
    const result = settled(table.ask({ questions: [question], sessionId: "s1" }));
    const rpcId = table.replay()[0]!.rpcId;
    expect(await table.respond({ type: "answer", rpcId, sessionId: "s1", answers: [{ id: "pkg", selected: ["npm"] }] })).toEqual({ accepted: true });
    expect(await result).toEqual({ value: { answers: [{ id: "pkg", selected: ["npm"] }] } });
    expect(events).toEqual(["burst", "changed s1 in 1", "question/requested in 1", "burst", "question/resolved in 1", "changed s1 in 1"]);
  });

  it("rejects a question without a session with ASK_MISSING_SESSION", async () => {
    const { table, frames } = setup();
    expect(await settled(table.ask({ questions: [question] }))).toEqual({
      error: { code: "ASK_MISSING_SESSION", message: "ask_user_question needs the session it belongs to" },
    });
    expect(frames).toEqual([]);
  });

  it("[respond-claim] claims an answer: deletes, broadcasts question/resolved, then settles with the answers as sent", async () => {
    const { table, frames, changes } = setup();
    const result = settled(table.ask({ questions: [question], sessionId: "s1" }));
    const rpcId = table.replay()[0]!.rpcId;
    expect(await table.respond({ type: "answer", rpcId, sessionId: "s1", answers: [{ id: "pkg", selected: ["npm"] }] })).toEqual({ accepted: true });
    expect(table.replay()).toEqual([]);
    expect(frames.at(-1)).toEqual({ type: "question/resolved", rpcId, sessionId: "s1", outcome: "answered" });
    expect(await result).toEqual({ value: { answers: [{ id: "pkg", selected: ["npm"] }] } });
    expect(changes).toEqual(["s1", "s1"]);
    expect(await table.respond({ type: "answer", rpcId, sessionId: "s1", answers: [{ id: "pkg", selected: ["npm"] }] })).toEqual({
      accepted: false,
      reason: "not-pending",
      detail: `question ${rpcId} is not pending (unknown, already answered, cancelled or aborted)`,
    });
  });

  it("[pending-cap] refuses a question past PARLEY_MAX_PENDING with TOO_MANY_PENDING naming the cap, and takes one again once one settled", async () => {
    const { table, frames } = setup({ maxPending: 2 });
    void settled(table.ask({ questions: [question], sessionId: "s1" }));
    void settled(table.ask({ questions: [question], sessionId: "s2" }));
    expect(await settled(table.ask({ questions: [question], sessionId: "s3" }))).toEqual({
      error: { code: "TOO_MANY_PENDING", message: "this host already holds 2 pending questions (PARLEY_MAX_PENDING): answer or stop some, then ask again" },
    });
    expect(frames.map((frame) => frame.type)).toEqual(["question/requested", "question/requested"]);
    const first = table.replay()[0]!;
    expect(await table.respond({ type: "cancel", rpcId: first.rpcId, sessionId: "s1" })).toEqual({ accepted: true });
    void settled(table.ask({ questions: [question], sessionId: "s3" }));
    expect(table.replay().map((frame) => frame.sessionId)).toEqual(["s2", "s3"]);
  });

  it("[respond-durable] writes an answer before it accepts it: a failed write is the response's error and the question stays pending for the next answer", async () => {
    const written: AcceptedAnswer[] = [];
    let failing = true;
    const { table, frames } = setup({
      commit: async (answer) => {
        if (failing) throw new StorageError("STORAGE_FULL", "the disk is full", "SQLITE_FULL");
        written.push(answer);
      },
    });
    const result = settled(table.ask({ questions: [question], sessionId: "s1", messageId: "row-1" }));
    const rpcId = table.replay()[0]!.rpcId;
    const body = { type: "answer", rpcId, sessionId: "s1", answers: [{ id: "pkg", selected: ["npm"] }] };
    await expect(table.respond(body)).rejects.toEqual(new StorageError("STORAGE_FULL", "the disk is full", "SQLITE_FULL"));
    expect([table.replay().map((frame) => frame.rpcId), frames.map((frame) => frame.type), written]).toEqual([[rpcId], ["question/requested"], []]);
    failing = false;
    // Two answers at once: the first is written and wins, the second finds the question settled.
    const [one, two] = await Promise.all([table.respond(body), table.respond({ ...body, answers: [{ id: "pkg", selected: ["pnpm"] }] })]);
    expect([one, two.accepted, written]).toEqual([{ accepted: true }, false, [{ rpcId, sessionId: "s1", messageId: "row-1", given: { answers: [{ id: "pkg", selected: ["npm"] }] } }]]);
    expect(await result).toEqual({ value: { answers: [{ id: "pkg", selected: ["npm"] }] } });
  });

  it("lets an answer whose write is under way win over an abort that comes meanwhile", async () => {
    let release: () => void = () => undefined;
    const { table } = setup({ commit: () => new Promise<void>((resolve) => (release = resolve)) });
    const controller = new AbortController();
    const result = settled(table.ask({ questions: [question], sessionId: "s1", messageId: "row-1", signal: controller.signal }));
    const rpcId = table.replay()[0]!.rpcId;
    const receipt = table.respond({ type: "answer", rpcId, sessionId: "s1", answers: [{ id: "pkg", selected: ["npm"] }] });
    controller.abort();
    release();
    expect([await receipt, await result]).toEqual([{ accepted: true }, { value: { answers: [{ id: "pkg", selected: ["npm"] }] } }]);
  });

  it("checks shape, then pending, then session, then the rules", async () => {
    const { table } = setup();
    void settled(table.ask({ questions: [question], sessionId: "s1" }));
    const rpcId = table.replay()[0]!.rpcId;
    expect(await table.respond({ type: "answer", rpcId: "x", sessionId: "s2" })).toMatchObject({ accepted: false, reason: "bad-response" });
    expect(await table.respond({ type: "answer", rpcId: "x", sessionId: "s2", answers: "nope" })).toMatchObject({ accepted: false, reason: "bad-response" });
    expect(await table.respond({ type: "answer", rpcId: "x", sessionId: "s2", answers: [] })).toMatchObject({ accepted: false, reason: "not-pending" });
    expect(await table.respond({ type: "answer", rpcId, sessionId: "s2", answers: [] })).toEqual({
      accepted: false,
      reason: "bad-response",
      detail: `question ${rpcId} does not belong to session s2`,
    });
    expect(await table.respond({ type: "answer", rpcId, sessionId: "s1", answers: [] })).toEqual({
      accepted: false,
      reason: "bad-response",
      detail: "expected 1 answer item(s), one per question, got 0",
    });
    expect(table.replay().map((frame) => frame.rpcId)).toEqual([rpcId]);
  });

  it("rejects a cancel with ASK_CANCELLED and outcome cancelled", async () => {
    const { table, frames } = setup();
    const result = settled(table.ask({ questions: [question], sessionId: "s1" }));
    const rpcId = table.replay()[0]!.rpcId;
    expect(await table.respond({ type: "cancel", rpcId, sessionId: "s1" })).toEqual({ accepted: true });
    expect(frames.at(-1)).toEqual({ type: "question/resolved", rpcId, sessionId: "s1", outcome: "cancelled" });
    expect(await result).toEqual({ error: { code: "ASK_CANCELLED", message: "the user cancelled ask_user_question" } });
  });

  it("rejects on the turn's abort with ASK_ABORTED and outcome aborted", async () => {
    const { table, frames } = setup();
    const controller = new AbortController();
    const result = settled(table.ask({ questions: [question], sessionId: "s1", signal: controller.signal }));
    const rpcId = table.replay()[0]!.rpcId;
    controller.abort();
    expect(frames.at(-1)).toEqual({ type: "question/resolved", rpcId, sessionId: "s1", outcome: "aborted" });
    expect(await result).toEqual({ error: { code: "ASK_ABORTED", message: "ask_user_question was aborted before the user answered" } });
    expect(await table.respond({ type: "cancel", rpcId, sessionId: "s1" })).toMatchObject({ accepted: false, reason: "not-pending" });
  });

  it("settles every pending question on dispose with the disposal message, oldest first", async () => {
    const { table, frames } = setup();
    const first = settled(table.ask({ questions: [question], sessionId: "s1" }));
    const second = settled(table.ask({ questions: [question], sessionId: "s2" }));
    const ids = table.replay().map((frame) => frame.rpcId);
    table.dispose();
    expect(frames.slice(2)).toEqual([
      { type: "question/resolved", rpcId: ids[0], sessionId: "s1", outcome: "aborted" },
      { type: "question/resolved", rpcId: ids[1], sessionId: "s2", outcome: "aborted" },
    ]);
    const disposed = { error: { code: "ASK_ABORTED", message: "web user-interaction provider was disposed" } };
    expect(await first).toEqual(disposed);
    expect(await second).toEqual(disposed);
    expect(await settled(table.ask({ questions: [question], sessionId: "s1" }))).toEqual(disposed);
  });

  it("accepts any answer batch built by the rules", async () => {
    await fc.assert(
      fc.asyncProperty(answeredBatch, async ([questions, answers]) => {
        const { table } = setup();
        void table.ask({ questions, sessionId: "s1" });
        const rpcId = table.replay()[0]!.rpcId;
        expect(await table.respond({ type: "answer", rpcId, sessionId: "s1", answers })).toEqual({ accepted: true });
        expect(table.replay()).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it("rejects any single rule-breaking mutation with bad-response and leaves the question pending and answerable", async () => {
    await fc.assert(
      fc.asyncProperty(answeredBatch, mutation, fc.nat(), async ([questions, answers], kind, at) => {
        const broken = mutate(questions, answers, kind, at);
        fc.pre(broken !== null);
        const { table, frames } = setup();
        void table.ask({ questions, sessionId: "s1" });
        const rpcId = table.replay()[0]!.rpcId;
        expect(await table.respond({ type: "answer", rpcId, sessionId: "s1", answers: broken })).toMatchObject({ accepted: false, reason: "bad-response" });
        expect(table.replay().map((frame) => frame.rpcId)).toEqual([rpcId]);
        expect(frames.length).toBe(1);
        expect(await table.respond({ type: "answer", rpcId, sessionId: "s1", answers })).toEqual({ accepted: true });
      }),
      { numRuns: 500 },
    );
  });

  it("rejects a valid answer sent for the wrong session with bad-response and leaves the question pending", async () => {
    await fc.assert(
      fc.asyncProperty(answeredBatch, fc.string({ minLength: 1 }), async ([questions, answers], other) => {
        fc.pre(other !== "s1");
        const { table } = setup();
        void table.ask({ questions, sessionId: "s1" });
        const rpcId = table.replay()[0]!.rpcId;
        expect(await table.respond({ type: "answer", rpcId, sessionId: other, answers })).toMatchObject({ accepted: false, reason: "bad-response" });
        expect(await table.respond({ type: "cancel", rpcId, sessionId: other })).toMatchObject({ accepted: false, reason: "bad-response" });
        expect(table.replay().length).toBe(1);
      }),
      { numRuns: 200 },
    );
  });
});

describe("pending table, an ask's own rule", () => {
  it("refuses an answer its injected judge fails by the ask's rule as bad-response with the judge's sentence, keeps the question pending, then takes one that passes", async () => {
    const { table, frames } = setup({ judge: judgeAnswerRule });
    const requestedSchema = { type: "object", properties: { mail: { type: "string", title: "Mail", format: "email" } }, required: ["mail"] };
    const rule: AnswerRule = { kind: "elicitation-schema", requestedSchema };
    const mail: QuestionItem = { id: "mail", question: "Mail", required: true, input: { kind: "email" } };
    const asked = table.ask({ questions: [mail], sessionId: "s1", rule });
    const requested = frames.find((frame) => frame.type === "question/requested")!;
    const rpcId = requested.type === "question/requested" ? requested.rpcId : "";
    const body = (custom: string) => ({ type: "answer", rpcId, sessionId: "s1", answers: [{ id: "mail", selected: [], custom }] });
    expect([table.ruleOf(rpcId), table.ruleOf("unknown"), await table.respond(body("a..b@example.com")), table.replay().map((frame) => frame.rpcId)]).toEqual([
      rule,
      undefined,
      { accepted: false, reason: "bad-response", detail: `"mail" must be an email address (letters, digits and !#$%&'*+/=?^_\`{|}~- before the @)` },
      [rpcId],
    ]);
    expect(await table.respond(body("a.b@example.com"))).toEqual({ accepted: true });
    expect(await settled(asked)).toEqual({ value: { answers: [{ id: "mail", selected: [], custom: "a.b@example.com" }] } });
  });
});
