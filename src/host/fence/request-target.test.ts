import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeSegment, parseRequestTarget, parseWithUrl } from "./request-target";

describe("parseRequestTarget", () => {
  it("reads the path and query of an origin-form target", () => {
    const target = parseRequestTarget("/api/sessions?limit=5&q=a%20b");
    expect(target?.pathname).toBe("/api/sessions");
    expect(Object.fromEntries(target!.search)).toEqual({ limit: "5", q: "a b" });
  });

  it("treats targets that look like authorities as paths", () => {
    expect(parseRequestTarget("//")?.pathname).toBe("//");
    expect(parseRequestTarget("//@")?.pathname).toBe("//@");
    expect(parseRequestTarget("//a:99999/")?.pathname).toBe("//a:99999/");
    expect(parseRequestTarget("//%")?.pathname).toBe("//%");
    expect(parseRequestTarget("///evil.example/x")?.pathname).toBe("///evil.example/x");
  });

  it("[http-target] refuses targets that are not origin-form", () => {
    expect(parseRequestTarget(undefined)).toBeNull();
    expect(parseRequestTarget("")).toBeNull();
    expect(parseRequestTarget("*")).toBeNull();
    expect(parseRequestTarget("http://127.0.0.1:8787/")).toBeNull();
    expect(parseRequestTarget("api/health")).toBeNull();
  });

  it("never throws, whatever the bytes", () => {
    const samples = ["/\u0000", "/%", "/%E0%A4%A", "/\uD800", "/?%", "/#x", "/\\\\evil", "/ \t\r\n", "/" + "a".repeat(100_000)];
    for (const sample of samples) expect(() => parseRequestTarget(sample)).not.toThrow();
  });

  it("reads every target as the URL parser does, plain paths (taken without it) and dot segments among them", () => {
    const fixed = ["/", "/api/respond", "/a//b", "/.", "/..", "/./x", "/a/../b", "/a/.", "/.a/..b/...", "/~-_.x/", "/api/sessions/3f2a-9c"];
    const target = (raw: string) => {
      const read = parseRequestTarget(raw);
      return read && { pathname: read.pathname, search: [...read.search] };
    };
    const byUrl = (raw: string) => {
      const read = parseWithUrl(raw);
      return read && { pathname: read.pathname, search: [...read.search] };
    };
    for (const raw of fixed) expect(target(raw)).toEqual(byUrl(raw));
    const segment = fc.string({ unit: fc.constantFrom("a", "Z", "0", ".", "~", "-", "_", "%", "/", "?", "\\", " ", "é"), maxLength: 6 });
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const raw = `/${segments.join("/")}`;
        expect(target(raw)).toEqual(byUrl(raw));
      }),
      { seed: 25, numRuns: 3000 },
    );
  });
});

describe("decodeSegment", () => {
  it("decodes valid percent-encoding and refuses broken sequences", () => {
    expect(decodeSegment("a%20b")).toBe("a b");
    expect(decodeSegment("%")).toBeNull();
    expect(decodeSegment("%E0%A4%A")).toBeNull();
    expect(decodeSegment("%ZZ")).toBeNull();
  });
});
