import AxeBuilder from "@axe-core/playwright";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { removeDataDir, startHostProcess, type HostProcess } from "../src/testing/host/host-process";

let dataDir = "";
let host: HostProcess | null = null;

test.beforeEach(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "parley-e2e-"));
  host = await startHostProcess({ dataDir });
});

test.afterEach(async () => {
  await host?.kill("SIGTERM");
  removeDataDir(dataDir);
});

test("a question whose host was killed reads interrupted after the restart, with a note, in English and Chinese, and no axe violations", async ({ page }) => {
  await page.goto(host!.url);
  await page.getByRole("textbox", { name: "Message" }).fill(`/ask ${JSON.stringify({ questions: [{ id: "go", question: "Go ahead?", options: [{ label: "Yes" }, { label: "No" }] }] })}`);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("region", { name: "Go ahead?" })).toBeVisible();
  const port = host!.port;
  expect(await host!.kill("SIGKILL")).toBe("SIGKILL");
  host = await startHostProcess({ dataDir, port });
  const messages = page.getByRole("region", { name: "Messages" });
  await expect(messages.getByRole("button", { name: /Ask question\s*interrupted/ })).toBeVisible({ timeout: 15_000 });
  await expect(messages.getByText("Interrupted: the host running this call stopped before it finished.", { exact: true })).toBeVisible();
  // Nobody stopped the turn: the host lost it, and the bar says so.
  await expect(page.locator(".turn-bar")).toHaveAttribute("data-ending", "interrupted");
  await expect(page.locator(".turn-bar__text")).toHaveText("The reply was cut off.");
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((violation) => `${scheme} ${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
  }
  await page.getByRole("combobox", { name: "Language" }).selectOption("zh-CN");
  await expect(page.getByText("已中断：运行此调用的主机在调用完成前停止了。", { exact: true })).toBeVisible();
  await expect(page.locator(".turn-bar__text")).toHaveText("回复被中断。");
});
