import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkAnswers } from "../protocol/answers";
import { CreateSessionBody, PostMessageBody, RespondBody, type DownFrame, type QuestionRequestedFrame, type Receipt } from "../protocol/schemas";
import { silentLogger } from "./log";
import { createPendingTable } from "./pending/pending-table";
import type { RunningServer } from "./server";
import { api, connect, createSession, startTestServer, type FrameClient } from "../testing/host/harness";
import { describeIssues } from "./pending/user-interaction";

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const FUZZ_TIMEOUT_MS = 60_000 + RUNS * 100;
const BAD_SHAPE = 'body must be {"type":"answer","rpcId","sessionId","answers":[...]} or {"type":"cancel","rpcId","sessionId"}';

const invalidJson = { status: 400, body: { error: { code: "INVALID_JSON", message: "the body is not valid JSON" } } };
const unsupported = { status: 415, body: { error: { code: "UNSUPPORTED_MEDIA_TYPE", message: "send the body as Content-Type: application/json" } } };

function parsesAsJson(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(Buffer.from(bytes).toString("utf8")) };
  } catch {
    return { ok: false };
  }
}

async function post(base: string, path: string, body: Uint8Array | string, contentType = "application/json") {
  const response = await fetch(base + path, { method: "POST", headers: { "content-type": contentType }, body: typeof body === "string" ? body : Buffer.from(body) });
  const text = await response.text();
  return { status: response.status, body: (response.headers.get("content-type") ?? "").startsWith("application/json") ? (JSON.parse(text) as unknown) : text };
}

const jsonValue = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(fc.constantFrom("type", "rpcId", "sessionId", "answers", "text", "title"), fc.jsonValue()),
  fc.record({ type: fc.constantFrom("answer", "cancel", "Answer", ""), rpcId: fc.jsonValue(), sessionId: fc.jsonValue(), answers: fc.jsonValue() }, { requiredKeys: ["type"] }),
);
const bytes = fc.oneof(fc.uint8Array({ maxLength: 512 }), fc.string({ unit: "binary", maxLength: 256 }).map((text) => new TextEncoder().encode(text)));

function expectedReceipt(value: unknown): Receipt {
  const shape = RespondBody.safeParse(value);
  if (!shape.success) return { accepted: false, reason: "bad-response", detail: BAD_SHAPE };
  return { accepted: false, reason: "not-pending", detail: `question ${shape.data.rpcId} is not pending (unknown, already answered, cancelled or aborted)` };
}

describe("fuzzing every POST route over real HTTP", () => {
  let server: RunningServer;
  let observer: FrameClient;
  let pendingSession: string;
  let idleSession: string;
  let asked: QuestionRequestedFrame;
  let replayBefore: DownFrame[];

  async function replayNow(): Promise<DownFrame[]> {
    const fresh = await connect(server.url);
    await fresh.waitFor((frame) => frame.type === "synced");
    await fresh.close();
    return fresh.frames.slice(1);
  }

  beforeAll(async () => {
    server = await startTestServer({ rateLimits: false });
    observer = await connect(server.url);
    pendingSession = await createSession(server.url);
    idleSession = await createSession(server.url);
    const questions = [
      { id: "pkg", question: "Which package manager?", options: [{ label: "pnpm (Recommended)" }, { label: "npm" }] },
      { id: "extras", question: "Extras?", multi_select: true, options: [{ label: "lint" }, { label: "test" }, { label: "ci" }] },
      { id: "name", question: "Project name?" },
    ];
    await api(server.url, `/api/sessions/${pendingSession}/messages`, { json: { text: `/ask ${JSON.stringify({ questions })}` } });
    asked = await observer.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested");
    replayBefore = await replayNow();
    expect(replayBefore).toEqual([asked, { type: "synced" }]);
  });

  afterAll(async () => {
    const health = await api(server.url, "/api/health");
    expect(health.status).toBe(200);
    expect(await replayNow()).toEqual(replayBefore);
    expect(observer.frames.filter((frame) => frame.type === "question/resolved" || frame.type === "question/requested")).toEqual([asked]);
    await observer.close();
    await server.close();
  });

  it("answers every arbitrary JSON body on /api/respond with a rejecting receipt", { timeout: FUZZ_TIMEOUT_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(jsonValue, async (value) => {
        const result = await post(server.url, "/api/respond", JSON.stringify(value));
        expect(result).toEqual({ status: 200, body: expectedReceipt(value) });
      }),
      { numRuns: RUNS },
    );
    expect(await replayNow()).toEqual(replayBefore);
  });

  it("rejects arbitrary answers, cancels and answers to the wrong session for the pending question and keeps it pending", { timeout: FUZZ_TIMEOUT_MS }, async () => {
    const ids = fc.constantFrom("pkg", "extras", "name", "other", "");
    const labels = fc.constantFrom("pnpm (Recommended)", "pnpm", "npm", "lint", "test", "ci", "", " ");
    const item = fc.record({ id: ids, selected: fc.array(labels, { maxLength: 3 }), custom: fc.option(fc.string({ maxLength: 6 }), { nil: undefined }) }, { requiredKeys: ["id", "selected"] });
    const answers = fc.oneof(fc.array(item, { maxLength: 4 }), fc.array(fc.jsonValue(), { maxLength: 4 }));
    const wrongSession = fc.string({ maxLength: 40 }).filter((id) => id !== pendingSession);
    const body = fc.oneof(
      answers.map((list) => ({ kind: "answer" as const, list, sessionId: pendingSession })),
      fc.tuple(answers, wrongSession).map(([list, sessionId]) => ({ kind: "answer" as const, list, sessionId })),
      wrongSession.map((sessionId) => ({ kind: "cancel" as const, list: [], sessionId })),
    );
    await fc.assert(
      fc.asyncProperty(body, async ({ kind, list, sessionId }) => {
        const problem = checkAnswers(asked.questions, list);
        fc.pre(kind === "cancel" || sessionId !== pendingSession || problem !== null);
        const request = kind === "cancel" ? { type: "cancel", rpcId: asked.rpcId, sessionId } : { type: "answer", rpcId: asked.rpcId, sessionId, answers: list };
        const result = await post(server.url, "/api/respond", JSON.stringify(request));
        const detail = sessionId !== pendingSession ? `question ${asked.rpcId} does not belong to session ${sessionId}` : problem;
        expect(result).toEqual({ status: 200, body: { accepted: false, reason: "bad-response", detail } });
      }),
      { numRuns: RUNS },
    );
    expect(await replayNow()).toEqual(replayBefore);
  });

  it("answers arbitrary bytes on /api/respond with 400 or a rejecting receipt", { timeout: FUZZ_TIMEOUT_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(bytes, async (raw) => {
        const result = await post(server.url, "/api/respond", raw);
        const parsed = parsesAsJson(raw);
        expect(result).toEqual(parsed.ok ? { status: 200, body: expectedReceipt(parsed.value) } : invalidJson);
      }),
      { numRuns: RUNS },
    );
    expect(await replayNow()).toEqual(replayBefore);
  });

  it("answers arbitrary JSON and bytes on a waiting session's messages with 400 or 409 and starts no turn", { timeout: FUZZ_TIMEOUT_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(jsonValue.map((value) => new TextEncoder().encode(JSON.stringify(value))), bytes), async (raw) => {
        const result = await post(server.url, `/api/sessions/${pendingSession}/messages`, raw);
        const parsed = parsesAsJson(raw);
        if (!parsed.ok) {
          expect(result).toEqual(invalidJson);
          return;
        }
        const body = PostMessageBody.safeParse(parsed.value);
        expect(result).toEqual(
          body.success
            ? { status: 409, body: { error: { code: "TURN_RUNNING", message: "a turn is already running in this session; abort it or wait" } } }
            : { status: 400, body: { error: { code: "INVALID_BODY", message: `invalid body: ${describeIssues(body.error.issues)}` } } },
        );
      }),
      { numRuns: RUNS },
    );
    expect(await replayNow()).toEqual(replayBefore);
  });

  it("answers arbitrary JSON and bytes on /api/sessions with 201 or 400, taking a JSON null like an empty body", { timeout: FUZZ_TIMEOUT_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(jsonValue.map((value) => new TextEncoder().encode(JSON.stringify(value))), bytes), async (raw) => {
        const result = await post(server.url, "/api/sessions", raw);
        const parsed = raw.length === 0 ? { ok: true as const, value: {} } : parsesAsJson(raw);
        if (!parsed.ok) {
          expect(result).toEqual(invalidJson);
          return;
        }
        const body = CreateSessionBody.safeParse(parsed.value ?? {});
        if (!body.success) {
          expect(result).toEqual({ status: 400, body: { error: { code: "INVALID_BODY", message: `invalid body: ${describeIssues(body.error.issues)}` } } });
          return;
        }
        expect(result.status).toBe(201);
        expect((result.body as { session: { state: string } }).session.state).toBe("idle");
      }),
      { numRuns: RUNS },
    );
    expect(await replayNow()).toEqual(replayBefore);
  });

  it("answers arbitrary bytes on an idle session's abort with 202 or 400", { timeout: FUZZ_TIMEOUT_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(bytes, async (raw) => {
        const result = await post(server.url, `/api/sessions/${idleSession}/abort`, raw);
        const parsed = raw.length === 0 ? { ok: true as const } : parsesAsJson(raw);
        expect(result).toEqual(parsed.ok ? { status: 202, body: { aborted: false } } : invalidJson);
      }),
      { numRuns: RUNS },
    );
    expect(await replayNow()).toEqual(replayBefore);
  });

  it("answers a non-empty body of any other content type with 415 on every POST route", { timeout: FUZZ_TIMEOUT_MS }, async () => {
    const routes = fc.constantFrom("/api/respond", "/api/sessions", `/api/sessions/${pendingSession}/messages`, `/api/sessions/${pendingSession}/abort`);
    const contentType = fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonp", "text/json", "application/octet-stream");
    await fc.assert(
      fc.asyncProperty(routes, contentType, fc.oneof(jsonValue.map((value) => JSON.stringify(value)), bytes.filter((raw) => raw.length > 0)), async (route, type, raw) => {
        expect(await post(server.url, route, raw, type)).toEqual(unsupported);
      }),
      { numRuns: RUNS },
    );
    expect(await replayNow()).toEqual(replayBefore);
  });
});

describe("pending table under random asks and responses", () => {
  it("counts each session's pending questions exactly as a model of the table does", async () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant("ask" as const), session: fc.integer({ min: 0, max: 4 }) }),
      fc.record({ kind: fc.constantFrom("answer" as const, "cancel" as const, "abort" as const), pick: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps) => {
        const table = createPendingTable({ broadcast: () => undefined, log: silentLogger });
        const live: { rpcId: string; session: string; controller: AbortController }[] = [];
        const question = [{ id: "q", question: "Q?" }];
        for (const item of steps) {
          if (item.kind === "ask") {
            const controller = new AbortController();
            const session = `s${item.session}`;
            table.ask({ questions: question, sessionId: session, signal: controller.signal }).then(
              () => undefined,
              () => undefined,
            );
            const frames = table.replay();
            live.push({ rpcId: frames[frames.length - 1]!.rpcId, session, controller });
          } else if (live.length > 0) {
            const [target] = live.splice(item.pick % live.length, 1);
            if (item.kind === "abort") target!.controller.abort();
            else {
              const body = item.kind === "cancel" ? { type: "cancel", rpcId: target!.rpcId, sessionId: target!.session } : { type: "answer", rpcId: target!.rpcId, sessionId: target!.session, answers: [{ id: "q", selected: [] }] };
              expect(await table.respond(body)).toEqual({ accepted: true });
            }
          }
          for (let session = 0; session < 5; session++) {
            expect(table.countFor(`s${session}`)).toBe(live.filter((entry) => entry.session === `s${session}`).length);
          }
        }
        expect(table.replay().map((frame) => frame.rpcId)).toEqual(live.map((entry) => entry.rpcId));
      }),
      { numRuns: RUNS },
    );
  });
});
