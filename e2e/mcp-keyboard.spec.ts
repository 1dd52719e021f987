import { expect, test, type Page } from "@playwright/test";
import { startHostWithTestMcp, type TestHost } from "./host";

let host: TestHost;

test.beforeAll(async () => {
  host = await startHostWithTestMcp("notes");
});

test.afterAll(async () => {
  await host.dispose();
});

async function openChat(page: Page) {
  const created = await page.request.post(`${host.url}/api/sessions`, { data: {} });
  const { session } = (await created.json()) as { session: { id: string } };
  await page.goto(`${host.url}/#session=${session.id}`);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
}

async function sendMessage(page: Page, text: string) {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

test("every step of a server's form that opens by Enter or the stepper has its field focused, so nothing typed is lost", async ({ page }) => {
  await openChat(page);
  await sendMessage(page, "/tool mcp__notes__ask_string {}");
  const email = page.getByRole("region", { name: "Email" }).getByRole("textbox", { name: "Type your answer" });
  await expect(email).toBeFocused();
  await page.keyboard.type("ada@example.org");
  await page.keyboard.press("Enter");
  const site = page.getByRole("region", { name: "site" }).getByRole("textbox", { name: "Type your answer" });
  await expect(site).toBeFocused();
  await page.keyboard.type("https://example.org/ada");
  await expect(site).toHaveValue("https://example.org/ada");
  await page.getByRole("button", { name: /^Question 1 of 5/ }).click();
  await expect(email).toBeFocused();
  await expect(email).toHaveValue("ada@example.org");
});

test("Allowed tools closes on Escape, returning focus to its button, and on a click outside", async ({ page }) => {
  await openChat(page);
  await sendMessage(page, `/tool mcp__notes__write_note ${JSON.stringify({ name: "plan", text: "ship it" })}`);
  await page.getByRole("region", { name: "Allow notes to run write_note?" }).getByRole("button", { name: "Allow for this chat" }).click();
  await expect(page.getByText("Tool result: saved plan", { exact: true })).toBeVisible();

  const toggle = page.getByRole("button", { name: "Allowed tools" });
  const menu = page.getByRole("region", { name: "Tools allowed for this chat" });
  await toggle.click();
  await expect(menu.getByRole("button", { name: "Revoke write_note from notes" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveCount(0);
  await expect(toggle).toBeFocused();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");

  await toggle.click();
  await expect(menu).toBeVisible();
  await page.getByText("Tool result: saved plan", { exact: true }).click();
  await expect(menu).toHaveCount(0);
});
