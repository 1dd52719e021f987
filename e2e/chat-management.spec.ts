import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { startHost, type TestHost } from "./host";

let host: TestHost;

test.beforeAll(async () => {
  host = await startHost();
});

test.afterAll(async () => {
  await host.dispose();
});

async function send(page: Page, text: string) {
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.fill(text);
  await composer.press("Enter");
  await expect(page.getByRole("button", { name: "Stop" })).toBeHidden();
}

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
}

const nav = (page: Page) => page.getByRole("navigation", { name: "Chats" });

test("a chat is renamed from the header and the sidebar, deleted and brought back with Undo, and found by its content", async ({ page }) => {
  await page.goto(host.url);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();
  await send(page, "/echo The quarterly numbers look fine");
  await expect(nav(page).getByRole("link", { name: "The quarterly numbers look fine" })).toBeVisible();

  await page.getByRole("button", { name: "Rename chat" }).click();
  const headerField = page.getByRole("textbox", { name: "Rename chat" });
  await headerField.fill("Finance");
  await headerField.press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Finance");
  await expect(nav(page).getByRole("link", { name: "Finance" })).toBeVisible();

  await nav(page).getByRole("link", { name: "Finance" }).hover();
  await nav(page).getByRole("button", { name: "Actions for “Finance”" }).click();
  await nav(page).getByRole("menuitem", { name: "Rename “Finance”" }).click();
  const sideField = nav(page).getByRole("textbox", { name: "Chat title" });
  await sideField.fill("Finance Q3");
  await sideField.press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Finance Q3");
  const reloaded = await page.request.get(`${host.url}/api/sessions?q=quarterly`);
  expect(((await reloaded.json()) as { sessions: { title: string }[] }).sessions.map((session) => session.title)).toEqual(["Finance Q3"]);

  await page.getByRole("button", { name: "New chat" }).click();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();
  await send(page, "/echo Holiday plans");
  await expect(nav(page).getByRole("link")).toHaveCount(2);

  const search = nav(page).getByRole("searchbox", { name: "Search chats" });
  await search.fill("quarterly");
  await expect(nav(page).getByRole("link")).toHaveText(["Finance Q3"]);
  await search.fill("finance");
  await expect(nav(page).getByRole("link")).toHaveText(["Finance Q3"]);
  await search.fill("nothing like this");
  await expect(nav(page).getByText("No chat matches “nothing like this”.")).toBeVisible();
  await search.fill("");
  await expect(nav(page).getByRole("link")).toHaveCount(2);

  await nav(page).getByRole("link", { name: "Finance Q3" }).click();
  await nav(page).getByRole("button", { name: "Actions for “Finance Q3”" }).click();
  await nav(page).getByRole("menuitem", { name: "Delete “Finance Q3”" }).click();
  await expect(nav(page).getByRole("link")).toHaveText(["Holiday plans"]);
  await expect(page.getByText("Start a conversation")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Deleted “Finance Q3”." })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(nav(page).getByRole("link")).toHaveCount(2);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Finance Q3");

  await nav(page).getByRole("link", { name: "Holiday plans" }).hover();
  await nav(page).getByRole("button", { name: "Actions for “Holiday plans”" }).click();
  await nav(page).getByRole("menuitem", { name: "Delete “Holiday plans”" }).click();
  await expect(page.getByRole("button", { name: "Undo" })).toBeHidden({ timeout: 15_000 });
  await expect.poll(async () => ((await (await page.request.get(`${host.url}/api/sessions`)).json()) as { sessions: { title: string }[] }).sessions.map((session) => session.title)).toEqual(["Finance Q3"]);
  await page.reload();
  await expect(nav(page).getByRole("link")).toHaveText(["Finance Q3"]);
});

test("an /ask chat is titled from the question's header, and the sidebar and header show it in both themes without axe violations", async ({ page }) => {
  await page.goto(host.url);
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.fill(`/ask ${JSON.stringify({ questions: [{ id: "db", header: "Database choice", question: "Which database?", options: [{ label: "SQLite" }, { label: "Postgres" }] }] })}`);
  await composer.press("Enter");
  await expect(nav(page).locator("[aria-current=page] .session-item__title")).toHaveText("Database choice");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Database choice");
  await expect(nav(page).locator("[aria-current=page]")).not.toContainText("{");
  await expect(page.getByRole("region", { name: "Which database?" })).toBeVisible();
  await page.keyboard.press("Alt+KeyQ");
  await page.getByRole("region", { name: "Which database?" }).getByRole("button", { name: "Dismiss all questions" }).click();
  await nav(page).getByRole("searchbox", { name: "Search chats" }).fill("data");
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoAxeViolations(page);
});

test("GitHub-flavoured markdown renders tables, task lists and links, and Copy puts a code block and a whole reply on the clipboard", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: host.url });
  await page.goto(host.url);
  const reply = ["| Tool | Use |", "| --- | --- |", "| pnpm | fast |", "", "- [x] written", "- [ ] shipped", "", "See https://example.com/docs and ~~not this~~.", "", "```ts", "const answer: number = 42;", "```"].join("\n");
  await send(page, `/echo ${reply}`);
  const transcript = page.getByRole("region", { name: "Messages" });
  await expect(transcript.getByRole("table")).toBeVisible();
  await expect(transcript.getByRole("row")).toHaveText(["ToolUse", "pnpmfast"]);
  await expect(transcript.getByRole("checkbox", { name: "Done", exact: true })).toBeChecked();
  await expect(transcript.getByRole("link", { name: "https://example.com/docs" })).toHaveAttribute("href", "https://example.com/docs");
  await expect(transcript.locator("code .hljs-keyword").first()).toHaveText("const");

  await transcript.getByRole("button", { name: "Copy code" }).click();
  await expect(transcript.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("const answer: number = 42;");
  await transcript.getByRole("button", { name: "Copy message" }).last().click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(reply);

  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoAxeViolations(page);
});

test("Escape stops a running reply, Retry sends the last message again, and ? lists the shortcuts in both languages", async ({ page }) => {
  const slow = await startHost({ PARLEY_SCRIPTED_CHUNK_MS: "3000" });
  try {
    await stopAndRetry(page, slow.url);
  } finally {
    await slow.dispose();
  }
});

async function stopAndRetry(page: Page, url: string) {
  await page.goto(url);
  const long = Array.from({ length: 400 }, (_, index) => `word${index}`).join(" ");
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.fill(`/echo ${long}`);
  await composer.press("Enter");
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByText("The reply was stopped.")).toBeVisible();
  await page.getByRole("button", { name: "Retry", exact: true }).click();
  await expect(page.getByRole("region", { name: "Messages" }).locator(".message--user")).toHaveCount(2);
  // The retried message can show before the turn it starts; Escape stops a running turn only.
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Stop" })).toBeHidden();

  await page.getByRole("heading", { level: 1 }).click();
  await page.keyboard.press("?");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("region", { name: "Question panel" })).toContainText("Fold the panel into a one-line bar");
  await expectNoAxeViolations(page);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("region", { name: "Messages" }).locator(".message--user")).toHaveCount(2);

  // A click on the dimmed page around it closes it too; a drag that selects its text and ends outside it does not.
  await page.keyboard.press("?");
  await expect(dialog).toBeVisible();
  const title = (await dialog.getByRole("heading", { name: "Keyboard shortcuts" }).boundingBox())!;
  await page.mouse.move(title.x + 2, title.y + title.height / 2);
  await page.mouse.down();
  await page.mouse.move(5, 5, { steps: 4 });
  await page.mouse.up();
  await expect(dialog).toBeVisible();
  await page.mouse.click(5, 5);
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("region", { name: "Messages" }).locator(".message--user")).toHaveCount(2);

  await page.getByRole("combobox", { name: "Language" }).selectOption("zh-CN");
  await page.getByRole("button", { name: "键盘快捷键" }).click();
  await expect(page.getByRole("dialog", { name: "键盘快捷键" })).toContainText("将面板折叠为一行");
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoAxeViolations(page);
}
