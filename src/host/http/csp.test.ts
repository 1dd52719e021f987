import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../server";
import { startTestServer } from "../../testing/host/harness";

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map((words) => [words[0]!, words.slice(1)]),
  );
}

describe("the Content-Security-Policy of served HTML", () => {
  let server: RunningServer;
  let staticDir: string;
  beforeAll(async () => {
    staticDir = mkdtempSync(path.join(tmpdir(), "parley-csp-"));
    writeFileSync(path.join(staticDir, "index.html"), '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>');
    server = await startTestServer({ staticDir });
  });
  afterAll(async () => {
    await server.close();
    rmSync(staticDir, { recursive: true, force: true });
  });

  for (const route of ["/", "/demo", "/#session=x"]) {
    it(`allows only same-origin scripts, no inline script, no eval and no plugins on ${route}`, async () => {
      const response = await fetch(server.url + route);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const policy = directives(response.headers.get("content-security-policy") ?? "");
      expect(policy.get("script-src")).toEqual(["'self'"]);
      expect(policy.get("default-src")).toEqual(["'self'"]);
      expect(policy.get("object-src")).toEqual(["'none'"]);
      expect(policy.get("base-uri")).toEqual(["'none'"]);
      expect(policy.has("script-src-elem")).toBe(false);
      expect(policy.has("script-src-attr")).toBe(false);
      expect(policy.get("img-src")?.some((source) => source.startsWith("http") || source === "*")).toBe(false);
      await response.text();
    });
  }

  it("sends the same policy with the page shown before the app is built", async () => {
    const bare = await startTestServer();
    try {
      const response = await fetch(bare.url + "/");
      await response.text();
      expect(directives(response.headers.get("content-security-policy") ?? "").get("script-src")).toEqual(["'self'"]);
    } finally {
      await bare.close();
    }
  });
});
