import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { ensureQwen } from "../src/testing/acp/qwen-install";
import { QWEN_QUESTION, QWEN_WRITTEN_TEXT, startQwenModel, type QwenModelServer } from "../src/testing/acp/qwen-model";
import { startHost, type TestHost } from "./host";

// A real agent: Qwen Code, installed on first use into a cache folder, against a scripted model on 127.0.0.1 (docs/architecture.md, ACP agents).
let host: TestHost;
let model: QwenModelServer;
let root: string;
let workspace: string;

test.describe.configure({ mode: "serial", timeout: 300_000 });

test.beforeAll(async () => {
  test.setTimeout(600_000);
  const qwen = ensureQwen();
  root = mkdtempSync(path.join(tmpdir(), "parley-e2e-qwen-"));
  workspace = path.join(root, "work");
  const home = path.join(root, "home");
  for (const dir of [workspace, home]) mkdirSync(dir, { recursive: true });
  model = await startQwenModel(workspace);
  const config = path.join(root, "parley.agents.json");
  writeFileSync(
    config,
    JSON.stringify({
      agents: {
        qwen: {
          title: "Qwen Code",
          command: qwen,
          args: ["--acp", "--auth-type", "openai", "--openai-base-url", model.baseURL, "--openai-api-key", "test-key", "-m", "scripted"],
          env: { HOME: home, QWEN_USAGE_STATISTICS_ENABLED: "0" },
        },
      },
      workspaces: [workspace],
    }),
  );
  host = await startHost({ PARLEY_AGENTS_CONFIG: config });
  await expect
    .poll(async () => ((await (await fetch(`${host.url}/api/agents`)).json()) as { agents: { state: string }[] }).agents[0]?.state, { timeout: 180_000, intervals: [500] })
    .toBe("ready");
});

test.afterAll(async () => {
  await host?.dispose();
  await model?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

async function openAgentChat(page: Page): Promise<string> {
  const created = await page.request.post(`${host.url}/api/sessions`, { data: { agent: "qwen", cwd: workspace } });
  expect(created.status()).toBe(201);
  const { session } = (await created.json()) as { session: { id: string } };
  await page.goto(`${host.url}/#session=${session.id}`);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  return session.id;
}

async function send(page: Page, text: string) {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

test("Qwen Code's ask_user_question is answered in the panel as a question, not an approval, and the model's next request holds the answer", async ({ page }) => {
  await openAgentChat(page);
  await send(page, "QUESTION which database?");
  const panel = page.getByRole("region", { name: QWEN_QUESTION });
  await expect(panel).toBeVisible({ timeout: 120_000 });
  await expect(page.locator("[data-approval-card]")).toHaveCount(0);
  await panel.getByRole("radio", { name: "Postgres" }).click();
  await expect.poll(() => model.mainCalls.some((call) => call.startsWith("tool:") && call.includes("Postgres")), { timeout: 120_000 }).toBe(true);
  const reply = page.getByRole("listitem").filter({ hasText: "done: User has provided the following answers:" });
  await expect(reply).toContainText("Database: Postgres", { timeout: 120_000 });
  await expect(page.getByRole("listitem").filter({ hasText: "Thinking…" })).toHaveCount(0);
});

test("write_file shows its diff in the approval card; allowed once the file exists, rejected with a reason it does not", async ({ page }) => {
  await openAgentChat(page);
  await send(page, "WRITE allowed.txt");
  const card = page.locator("[data-approval-card][data-acp]");
  await expect(card).toBeVisible({ timeout: 120_000 });
  await expect(card.getByRole("region", { name: /Changes to .*allowed\.txt/ })).toContainText("hello from qwen");
  await card.locator('[data-action="allow-once"]').click();
  await expect.poll(() => existsSync(path.join(workspace, "allowed.txt")), { timeout: 120_000 }).toBe(true);
  expect(readFileSync(path.join(workspace, "allowed.txt"), "utf8")).toBe(QWEN_WRITTEN_TEXT);
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0, { timeout: 120_000 });

  await send(page, "WRITE rejected.txt");
  await expect(card).toBeVisible({ timeout: 120_000 });
  await card.locator(".composer-card__button--danger").first().click();
  await card.getByRole("textbox", { name: /Reason/ }).fill("not this file");
  await card.locator('[data-action="deny"]').click();
  await expect(page.getByText("not this file").first()).toBeVisible({ timeout: 120_000 });
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0, { timeout: 120_000 });
  expect(existsSync(path.join(workspace, "rejected.txt"))).toBe(false);
});

test("Stop with Qwen's question open retires it on two tabs and a phone; a reload shows the same rows", async ({ page, browser }) => {
  const sessionId = await openAgentChat(page);
  const phone = await browser.newPage({ viewport: { width: 360, height: 740 } });
  await phone.goto(`${host.url}/#session=${sessionId}`);
  await send(page, "QUESTION again");
  for (const tab of [page, phone]) await expect(tab.getByRole("region", { name: QWEN_QUESTION })).toBeVisible({ timeout: 120_000 });
  await page.getByRole("button", { name: "Stop" }).click();
  for (const tab of [page, phone]) await expect(tab.getByRole("region", { name: QWEN_QUESTION })).toHaveCount(0, { timeout: 60_000 });
  await page.reload();
  await expect(page.getByRole("region", { name: "Messages" }).getByText("QUESTION again")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Qwen Code in" }).first()).toBeVisible();
  await phone.close();
});
