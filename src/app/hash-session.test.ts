import { describe, expect, it } from "vitest";
import { sessionFromHash, sessionHref } from "./hash-session";

describe("session hash", () => {
  it("round-trips a session id through the link, including characters that need escaping", () => {
    for (const id of ["3f2a", "a b/c#d", "会话"]) expect(sessionFromHash(sessionHref(id))).toBe(id);
  });

  it("names no session for an empty or foreign hash", () => {
    expect(sessionFromHash("")).toBeNull();
    expect(sessionFromHash("#")).toBeNull();
    expect(sessionFromHash("#session=")).toBeNull();
    expect(sessionFromHash("#single-select")).toBeNull();
  });
});
