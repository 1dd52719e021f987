import AxeBuilder from "@axe-core/playwright";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { TEST_MCP_STDIO_ARGS } from "../src/testing/host/test-mcp-server";
import { startHost, type TestHost } from "./host";

let host: TestHost;
let configDir: string;

test.beforeAll(async () => {
  configDir = mkdtempSync(path.join(tmpdir(), "parley-e2e-mcp-"));
  const file = path.join(configDir, "parley.mcp.json");
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        notes: { command: process.execPath, args: TEST_MCP_STDIO_ARGS },
        broken: { command: process.execPath, args: TEST_MCP_STDIO_ARGS, env: { TEST_MCP_FAIL_START: "1" } },
      },
    }),
  );
  host = await startHost({ PARLEY_MCP_CONFIG: file });
});

test.afterAll(async () => {
  await host.dispose();
  rmSync(configDir, { recursive: true, force: true });
});

async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((violation) => ({ id: violation.id, impact: violation.impact, targets: violation.nodes.map((node) => node.target.join(" ")) }));
}

test("a failed MCP server is named in a notice with its error, axe-clean in both themes, while the working one is not", async ({ page }) => {
  await page.goto(host.url);
  const notice = page.getByRole("status").filter({ hasText: "MCP server" });
  await expect(notice.getByRole("listitem")).toHaveText([
    "The MCP server “broken” is not available, so its tools are not offered: could not start (MCP error -32000: Connection closed): test server: refusing to start",
  ]);
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    expect(await violations(page)).toEqual([]);
  }
});
