import { describe, expect, it } from "vitest";
import { ApiError, type Api } from "../client/api";
import { createSessionStore } from "../store/session-store";
import { checkAccess } from "./chat-app";

function apiWithHealth(health: Api["health"]): Api {
  return { health } as Api;
}

describe("checkAccess", () => {
  it("marks a host that answers 401 UNAUTHORIZED as wanting a login, and clears it once health answers", async () => {
    const store = createSessionStore();
    await checkAccess(apiWithHealth(() => Promise.reject(new ApiError(401, "UNAUTHORIZED", "a valid token is required"))), store);
    expect(store.getState().access).toBe("login-required");
    await checkAccess(apiWithHealth(() => Promise.resolve({ ok: true, hostId: "h", protocol: 2 })), store);
    expect(store.getState().access).toBe("open");
  });

  it("leaves access alone when the host is simply unreachable", async () => {
    const store = createSessionStore();
    await checkAccess(apiWithHealth(() => Promise.reject(new TypeError("Failed to fetch"))), store);
    expect(store.getState().access).toBe("open");
  });
});
