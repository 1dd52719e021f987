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

  it("names no session for a hash that is not valid percent-encoding, instead of throwing", () => {
    for (const hash of ["#session=%", "#session=%E0%A4%A", "#session=%ZZ", "#session=%D8%00"]) expect(sessionFromHash(hash)).toBeNull();
  });
});
