import { describe, expect, it, vi } from "vitest";
import { ApiError, createApi } from "./api";

// The checks' chunk cannot be loaded here: a body still fails as an ApiError, and the host's own errors keep their codes.
vi.mock("./load-checks", () => ({
  loadedChecks: () => undefined,
  loadChecks: () => Promise.reject(new TypeError("Failed to fetch dynamically imported module")),
}));

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

describe("the API while the checks of the host's answers cannot load", () => {
  it("reports a body it cannot check as CHECKS_UNAVAILABLE, asking for a reload", async () => {
    const api = createApi({ fetch: () => Promise.resolve(json(200, { ok: true })) });
    const error = await api.health().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect({ ...(error as ApiError), message: (error as ApiError).message }).toEqual({
      name: "ApiError",
      status: 200,
      code: "CHECKS_UNAVAILABLE",
      retryAfterSeconds: undefined,
      message: "the app could not load its checks of the host's answers; reload the page (TypeError: Failed to fetch dynamically imported module)",
    });
  });

  it("still reads the host's error body, its code and its Retry-After", async () => {
    const api = createApi({ fetch: () => Promise.resolve(json(429, { error: { code: "RATE_LIMITED", message: "slow down" } }, { "retry-after": "7" })) });
    const error = await api.health().catch((caught: unknown) => caught);
    expect({ ...(error as ApiError), message: (error as ApiError).message }).toEqual({ name: "ApiError", status: 429, code: "RATE_LIMITED", retryAfterSeconds: 7, message: "slow down" });
  });
});
