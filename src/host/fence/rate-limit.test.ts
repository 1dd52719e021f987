import { afterEach, describe, expect, it } from "vitest";
import type { QuestionRequestedFrame } from "../../protocol/schemas";
import { api, connect, createSession, startTestServer, type FrameClient } from "../../testing/host/harness";
import { createRateLimiter, createRouteLimiter } from "./rate-limit";
import type { RunningServer } from "../server";

describe("createRateLimiter", () => {
  it("lets a burst through, then refuses with the whole seconds until the next token", () => {
    let clock = 0;
    const limiter = createRateLimiter({ burst: 3, perSecond: 0.5 }, () => clock);
    expect([limiter.take("a"), limiter.take("a"), limiter.take("a")]).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(limiter.take("a")).toEqual({ ok: false, retryAfterSeconds: 2 });
    clock = 1_000;
    expect(limiter.take("a")).toEqual({ ok: false, retryAfterSeconds: 1 });
    clock = 2_000;
    expect(limiter.take("a")).toEqual({ ok: true });
  });

  it("keeps one bucket per key", () => {
    const limiter = createRateLimiter({ burst: 1, perSecond: 1 }, () => 0);
    expect([limiter.take("a"), limiter.take("b"), limiter.take("a")]).toEqual([{ ok: true }, { ok: true }, { ok: false, retryAfterSeconds: 1 }]);
  });

  it("never holds more than a burst of tokens after a long idle time", () => {
    let clock = 0;
    const limiter = createRateLimiter({ burst: 2, perSecond: 10 }, () => clock);
    limiter.take("a");
    clock = 3_600_000;
    expect([limiter.take("a"), limiter.take("a"), limiter.take("a")]).toEqual([{ ok: true }, { ok: true }, { ok: false, retryAfterSeconds: 1 }]);
  });

  it("forgets full buckets once it tracks ten thousand keys", () => {
    let clock = 0;
    const limiter = createRateLimiter({ burst: 1, perSecond: 1 }, () => clock);
    for (let index = 0; index < 10_000; index++) limiter.take(`client-${index}`);
    expect(limiter.size).toBe(10_000);
    clock = 5_000;
    limiter.take("late");
    expect(limiter.size).toBe(1);
  });

  it("refuses a bucket that could never grant a request", () => {
    expect(() => createRateLimiter({ burst: 0, perSecond: 1 })).toThrow(RangeError);
    expect(() => createRateLimiter({ burst: 1, perSecond: 0 })).toThrow(RangeError);
  });
});

describe("createRouteLimiter", () => {
  it("limits each route on its own and passes everything when turned off", () => {
    const limit = createRouteLimiter({ respond: { burst: 1, perSecond: 1 }, messages: { burst: 1, perSecond: 1 } }, () => 0);
    expect([limit("respond", "a"), limit("messages", "a"), limit("respond", "a")]).toEqual([{ ok: true }, { ok: true }, { ok: false, retryAfterSeconds: 1 }]);
    const off = createRouteLimiter(false);
    expect(Array.from({ length: 1_000 }, () => off("respond", "a").ok).every(Boolean)).toBe(true);
  });
});

describe("rate limits over HTTP", () => {
  let server: RunningServer | null = null;
  let client: FrameClient | null = null;
  afterEach(async () => {
    await client?.close();
    await server?.close();
    client = null;
    server = null;
  });

  it("answers 429 with Retry-After on /api/respond past the burst and leaves the pending question answerable", async () => {
    server = await startTestServer({ rateLimits: { respond: { burst: 2, perSecond: 0.01 }, messages: { burst: 100, perSecond: 100 } } });
    client = await connect(server.url);
    const sessionId = await createSession(server.url);
    const question = { id: "pick", question: "Pick one", options: [{ label: "A" }, { label: "B" }] };
    await api(server.url, `/api/sessions/${sessionId}/messages`, { json: { text: `/ask ${JSON.stringify({ questions: [question] })}` } });
    const requested = await client.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested");
    const wrong = { type: "answer", rpcId: requested.rpcId, sessionId, answers: [{ id: "pick", selected: ["C"] }] };
    const first = await api(server.url, "/api/respond", { json: wrong });
    const second = await api(server.url, "/api/respond", { json: wrong });
    const third = await api(server.url, "/api/respond", { json: { ...wrong, answers: [{ id: "pick", selected: ["A"] }] } });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("100");
    expect(third.body).toEqual({ error: { code: "RATE_LIMITED", message: "too many requests; retry in 100 s" } });
    expect(client.frames.filter((frame) => frame.type === "question/resolved")).toEqual([]);
    const replayer = await connect(server.url);
    await replayer.waitFor((frame) => frame.type === "synced");
    expect(replayer.frames.map((frame) => frame.type)).toEqual(["hello", "question/requested", "synced"]);
    await replayer.close();
  });

  it("answers 429 with Retry-After on message posts past the burst without starting a turn", async () => {
    server = await startTestServer({ rateLimits: { respond: { burst: 100, perSecond: 100 }, messages: { burst: 1, perSecond: 0.5 } } });
    const sessionId = await createSession(server.url);
    const first = await api(server.url, `/api/sessions/${sessionId}/messages`, { json: { text: "/echo hi" } });
    const second = await api(server.url, `/api/sessions/${sessionId}/messages`, { json: { text: "/echo again" } });
    expect(first.status).toBe(202);
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe("2");
    expect(second.body).toEqual({ error: { code: "RATE_LIMITED", message: "too many requests; retry in 2 s" } });
    const detail = await api(server.url, `/api/sessions/${sessionId}`);
    const texts = (detail.body as { messages: { role: string; text?: string }[] }).messages.filter((message) => message.role === "user").map((message) => message.text);
    expect(texts).toEqual(["/echo hi"]);
  });

  it("does not limit other routes", async () => {
    server = await startTestServer({ rateLimits: { respond: { burst: 1, perSecond: 0.01 }, messages: { burst: 1, perSecond: 0.01 } } });
    const statuses = [];
    for (let index = 0; index < 5; index++) statuses.push((await api(server.url, "/api/sessions", { json: {} })).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
  });
});
