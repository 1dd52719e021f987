import { describe, expect, it } from "vitest";
import { ApiError, createApi } from "./api";

const session = { id: "s-1", title: "Chat", createdAt: "2026-11-30T09:00:00.000Z", updatedAt: "2026-11-30T09:00:00.000Z", state: "idle" as const };

function recording(reply: () => Response) {
  const calls: { url: string; method: string; body: string | null }[] = [];
  const api = createApi({
    baseUrl: "http://host",
    fetch: async (input, init) => {
      calls.push({ url: String(input), method: init?.method ?? "GET", body: typeof init?.body === "string" ? init.body : null });
      return reply();
    },
  });
  return { api, calls };
}

describe("createApi", () => {
  it("asks for a page of sessions with limit, cursor and search text, and returns the next cursor", async () => {
    const { api, calls } = recording(() => Response.json({ sessions: [session], next: "c-2" }));
    expect(await api.listSessions({ limit: 50, before: "c 1&x", q: "数据 & more" })).toEqual({ sessions: [session], next: "c-2" });
    expect(calls).toEqual([{ url: "http://host/api/sessions?limit=50&before=c+1%26x&q=%E6%95%B0%E6%8D%AE+%26+more", method: "GET", body: null }]);
  });

  it("reads a list without a cursor as the last page", async () => {
    const { api, calls } = recording(() => Response.json({ sessions: [] }));
    expect(await api.listSessions()).toEqual({ sessions: [], next: null });
    expect(calls.map((call) => call.url)).toEqual(["http://host/api/sessions"]);
  });

  it("renames a session with PATCH and its title", async () => {
    const { api, calls } = recording(() => Response.json({ session: { ...session, title: "Renamed" } }));
    expect(await api.renameSession("a/b", "Renamed")).toEqual({ ...session, title: "Renamed" });
    expect(calls).toEqual([{ url: "http://host/api/sessions/a%2Fb", method: "PATCH", body: '{"title":"Renamed"}' }]);
  });

  it("deletes a session with a keepalive DELETE, so one sent as the page unloads is not cancelled with it, and other calls without keepalive", async () => {
    const inits: (RequestInit | undefined)[] = [];
    const api = createApi({
      baseUrl: "http://host",
      fetch: async (_input, init) => {
        inits.push(init);
        return init?.method === "DELETE" ? new Response(null, { status: 204 }) : Response.json({ session });
      },
    });
    await api.deleteSession("a/b");
    await api.renameSession("a/b", "Chat");
    expect(inits.map((init) => [init?.method, init?.keepalive])).toEqual([
      ["DELETE", true],
      ["PATCH", undefined],
    ]);
  });

  it("turns an error body into an ApiError with its status and code", async () => {
    const { api } = recording(() => Response.json({ error: { code: "INVALID_QUERY", message: "limit must be 1..200" } }, { status: 400 }));
    const failure = await api.listSessions({ limit: 0 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect({ ...(failure as ApiError), message: (failure as ApiError).message }).toEqual({ name: "ApiError", status: 400, code: "INVALID_QUERY", message: "limit must be 1..200" });
  });

  it("keeps the seconds of a 429's Retry-After on the ApiError, and none when the host gave no number of seconds", async () => {
    const refusal = (retryAfter: string | null) => () =>
      Response.json(
        { error: { code: "RATE_LIMITED", message: "too many wrong tokens from this address; retry in 17 s" } },
        { status: 429, headers: retryAfter === null ? {} : { "retry-after": retryAfter } },
      );
    const failure = async (retryAfter: string | null) => (await recording(refusal(retryAfter)).api.listSessions().catch((error: unknown) => error)) as ApiError;
    expect(await failure("17")).toMatchObject({ status: 429, code: "RATE_LIMITED", retryAfterSeconds: 17 });
    expect((await failure(null)).retryAfterSeconds).toBeUndefined();
    expect((await failure("Wed, 21 Oct 2026 07:28:00 GMT")).retryAfterSeconds).toBeUndefined();
    expect((await failure("-3")).retryAfterSeconds).toBeUndefined();
    const plain = await recording(() => new Response("slow down", { status: 429, headers: { "retry-after": "4" } })).api.health().catch((error: unknown) => error);
    expect(plain).toMatchObject({ status: 429, code: "HTTP_429", message: "slow down", retryAfterSeconds: 4 });
  });

  it("fails an answer the host does not answer within its bound, saying so", async () => {
    const api = createApi({
      baseUrl: "http://host",
      respondTimeoutMs: 50,
      fetch: (_input, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason))),
    });
    await expect(api.respond({ type: "cancel", rpcId: "r1", sessionId: "s-1" })).rejects.toThrow(new Error("the host did not answer within 0.05 s"));
  });
});
