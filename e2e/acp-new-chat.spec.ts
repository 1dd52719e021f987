import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { TEST_AGENT_ARGS } from "../src/testing/acp/test-agent";
import { startHost, type TestHost } from "./host";

// New chat with ACP agents against the real host running the scripted test agent over stdio (docs/protocol.md, acp-agents).
let host: TestHost;
let root: string;
let workspace: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  root = mkdtempSync(path.join(tmpdir(), "parley-e2e-acp-new-"));
  workspace = path.join(root, "work");
  mkdirSync(workspace, { recursive: true });
  const config = path.join(root, "parley.agents.json");
  writeFileSync(
    config,
    JSON.stringify({
      agents: {
        test: { title: "Test Agent", command: process.execPath, args: TEST_AGENT_ARGS },
        broken: { title: "Broken Agent", command: path.join(root, "no-such-agent") },
      },
      workspaces: [workspace],
    }),
  );
  host = await startHost({ PARLEY_AGENTS_CONFIG: config });
  await expect
    .poll(async () => ((await (await fetch(`${host.url}/api/agents`)).json()) as { agents: { name: string; state: string }[] }).agents.map((agent) => `${agent.name}:${agent.state}`), { timeout: 60_000, intervals: [250] })
    .toEqual(["test:ready", "broken:failed"]);
});

test.afterAll(async () => {
  await host?.dispose();
  if (root) rmSync(root, { recursive: true, force: true });
});

test("New chat picks the test agent in a workspace: a refused folder is named beside the field, then the chat opens with its modes in the header and its / commands in the menu", async ({ page }) => {
  // The host's list of agents answers late: a press before it is in waits for it and opens the choice, not a plain chat.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/agents", async (route) => {
    await held;
    await route.continue();
  }, { times: 1 });
  await page.goto(host.url);
  const newChat = page.getByRole("button", { name: "New chat", exact: true });
  await newChat.click();
  await expect(newChat).toHaveAttribute("aria-busy", "true");
  await expect(page).not.toHaveURL(/#session=/);
  release();
  const dialog = page.getByRole("dialog", { name: "New chat" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("radio", { name: /Parley's assistant/ })).toBeChecked();
  await expect(dialog.getByRole("radio", { name: /Broken Agent/ })).toBeEnabled();
  await expect(dialog.getByText(/^failed, a new chat tries to start it again: cannot start /)).toBeVisible();

  await dialog.getByRole("radio", { name: /Test Agent/ }).check();
  const field = dialog.getByRole("textbox", { name: "Workspace folder" });
  await expect(field).toHaveValue(workspace);
  const outside = path.join(root, "elsewhere");
  await field.fill(outside);
  await dialog.getByRole("button", { name: "Start chat" }).click();
  await expect(dialog.getByRole("alert")).toContainText("The chat could not be started:");
  await expect(field).toHaveValue(outside);
  await expect(field).toHaveAttribute("aria-invalid", "true");

  await field.fill(workspace);
  await field.press("Enter");
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/#session=/);
  await expect(page.getByRole("navigation", { name: "Chats" }).locator(".session-item__agent")).toHaveText(["Test Agent"]);

  // The agent's session opens with the chat's first prompt: its row, then the modes in the header and the commands in the menu.
  const message = page.getByRole("textbox", { name: "Message" });
  await expect(message).toHaveAttribute("placeholder", "Message Test Agent (Enter to send, Shift+Enter for a new line)");
  await message.fill("/stream");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Test Agent in ${workspace}` })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("status").filter({ hasText: "Commands: /init /review /ship" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0, { timeout: 30_000 });
  const mode = page.locator(".conversation__header").getByRole("combobox", { name: "Mode" });
  await expect(mode).toHaveValue("default");
  await expect(mode).toBeEnabled();
  await message.fill("");
  await message.pressSequentially("/");
  await expect(page.getByRole("listbox", { name: "Commands" }).getByRole("option")).toHaveText([/^\/init/, /^\/review <what to review>/, "/ship <where>Ship it now"]);
  await message.press("Escape");

  // A mode that never asks is confirmed in the page: Escape keeps the mode, and so does its first button, which has the focus.
  await mode.selectOption("auto");
  const ask = page.getByRole("alertdialog", { name: "In mode Auto, Test Agent acts without asking you first. Switch?" });
  await expect(ask.getByRole("button", { name: "Keep Default" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(ask).toBeHidden();
  await expect(mode).toBeFocused();
  await expect(mode).toHaveValue("default");
  await mode.selectOption("auto");
  await ask.getByRole("button", { name: "Switch to Auto" }).click();
  await expect(mode).toHaveValue("auto");
  await expect(mode).toBeFocused();
  await page.reload();
  await expect(page.locator(".conversation__header").getByRole("combobox", { name: "Mode" })).toHaveValue("auto");
});

test("the folder is remembered for the agent; Escape closes New chat's choice and gives focus back; the assistant is still one choice away", async ({ page }) => {
  const sub = path.join(workspace, "sub");
  mkdirSync(sub, { recursive: true });
  await page.goto(host.url);
  const newChat = page.getByRole("button", { name: "New chat", exact: true });
  const dialog = page.getByRole("dialog", { name: "New chat" });
  await newChat.click();
  await dialog.getByRole("radio", { name: /Test Agent/ }).check();
  await dialog.getByRole("textbox", { name: "Workspace folder" }).fill(sub);
  await dialog.getByRole("button", { name: "Start chat" }).click();
  await expect(page).toHaveURL(/#session=/);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();

  await newChat.focus();
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("radio", { name: /Parley's assistant/ })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(dialog.getByRole("radio", { name: /Test Agent/ })).toBeChecked();
  await expect(dialog.getByRole("textbox", { name: "Workspace folder" })).toHaveValue(sub);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(newChat).toBeFocused();

  await newChat.click();
  await dialog.getByRole("button", { name: "Start chat" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).not.toHaveURL(/#session=/);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
});

test("an agent that crashed, or never started, can still be picked: the new chat's first message starts it again, or fails saying why", async ({ page }) => {
  await page.goto(host.url);
  const newChat = page.getByRole("button", { name: "New chat", exact: true });
  const dialog = page.getByRole("dialog", { name: "New chat" });
  const message = page.getByRole("textbox", { name: "Message" });
  const startWith = async (agent: RegExp) => {
    await newChat.click();
    await dialog.getByRole("radio", { name: agent }).check();
    await dialog.getByRole("textbox", { name: "Workspace folder" }).fill(workspace);
    await dialog.getByRole("button", { name: "Start chat" }).click();
    await expect(dialog).toHaveCount(0);
  };
  const send = async (text: string) => {
    await message.fill(text);
    await page.getByRole("button", { name: "Send" }).click();
  };

  await startWith(/Test Agent/);
  await send("/crash");
  await expect(page.locator(".turn-bar__text")).toHaveText("The reply failed.", { timeout: 30_000 });
  await expect(page.getByRole("region", { name: "Messages" })).toContainText("panic: the test agent crashed");

  await newChat.click();
  // New chat asks the host for the agents again as it opens: once that answer is in, the crashed agent reads failed and can be picked.
  await expect(dialog.locator('.new-chat-picker__choice[data-state="failed"]').filter({ hasText: "Test Agent" })).toContainText("failed, a new chat tries to start it again: the agent exited with code 3");
  await expect(dialog.getByRole("radio", { name: /Test Agent/ })).toBeEnabled();
  await page.keyboard.press("Escape");
  await startWith(/Test Agent/);
  await send("/stream");
  await expect(page.getByRole("status").filter({ hasText: `Test Agent in ${workspace}` })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0, { timeout: 30_000 });
  await expect(page.locator(".turn-bar")).toHaveCount(0);

  await startWith(/Broken Agent/);
  await send("hello");
  await expect(page.locator(".turn-bar__text")).toHaveText("The reply failed.", { timeout: 30_000 });
  await expect(page.getByRole("region", { name: "Messages" })).toContainText(`cannot start ${path.join(root, "no-such-agent")}`);
});

test("on a 360 px phone an agent chat's header keeps its Mode control inside it while a tall permission card fills the composer slot", async ({ page }) => {
  const created = await page.request.post(`${host.url}/api/sessions`, { data: { agent: "test", cwd: workspace } });
  const { session } = (await created.json()) as { session: { id: string } };
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`${host.url}/#session=${session.id}`);
  await page.getByRole("textbox", { name: "Message" }).fill("/permission edit");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.locator("[data-approval-card][data-acp]")).toBeVisible({ timeout: 30_000 });
  const header = page.locator(".conversation__header");
  const mode = header.getByRole("combobox", { name: "Mode" });
  await expect(mode).toBeVisible();
  const [headerBox, modeBox] = [await header.boundingBox(), await mode.boundingBox()];
  expect(modeBox!.y + modeBox!.height).toBeLessThanOrEqual(headerBox!.y + headerBox!.height);
  // Nothing of the transcript shows through where the header's controls are.
  expect(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest(".conversation__header") !== null, { x: modeBox!.x + modeBox!.width + 4, y: modeBox!.y + modeBox!.height / 2 })).toBe(true);
  await page.locator("[data-approval-card][data-acp]").locator('[data-action="allow-once"]').click();
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0, { timeout: 30_000 });
});
