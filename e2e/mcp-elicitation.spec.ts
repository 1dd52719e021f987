import AxeBuilder from "@axe-core/playwright";
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

async function ask(page: Page, kind: string) {
  await page.getByRole("textbox", { name: "Message" }).fill(`/tool mcp__notes__ask_${kind} {}`);
  await page.getByRole("button", { name: "Send" }).click();
}

/** The reply the scripted model writes with the tool's result: what the server received, as its JSON. */
async function expectServerGot(page: Page, result: unknown) {
  await expect(page.getByText(`Tool result: ${JSON.stringify(result)}`, { exact: true })).toBeVisible();
}

async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((violation) => ({ id: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }));
}

// e2e/question-fields.spec.ts covers the text, number, boolean and multi-select forms and Dismiss all;
// this file covers the single-selects whose titles map back to other values, and Stop.
test("single-selects: enum values, oneOf titles and legacy enumNames go back as their values, axe-clean in both themes", async ({ page }) => {
  await openChat(page);
  await ask(page, "enum");
  await expect(page.getByText("Asked by the notes server")).toBeVisible();
  await expect(page.getByRole("region", { name: "colour" }).getByRole("textbox")).toHaveCount(0);
  await page.getByRole("region", { name: "colour" }).getByRole("radio", { name: "green" }).click();
  await expectServerGot(page, { action: "accept", content: { colour: "green" } });

  await ask(page, "titled");
  const size = page.getByRole("region", { name: "Size" });
  await expect(size.getByRole("radio", { name: "Large" })).toBeChecked();
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    expect(await violations(page)).toEqual([]);
  }
  await size.getByRole("radio", { name: "Small" }).click();
  await expectServerGot(page, { action: "accept", content: { size: "s" } });

  await ask(page, "legacy");
  await page.getByRole("region", { name: "region" }).getByRole("radio", { name: "United States" }).click();
  await expectServerGot(page, { action: "accept", content: { region: "us" } });
});

test("Stop while a server's question is open takes the panel away and the server gets cancel", async ({ page }) => {
  await openChat(page);
  await ask(page, "legacy");
  await expect(page.getByRole("region", { name: "region" })).toBeVisible();
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(page.getByRole("region", { name: "region" })).toHaveCount(0);
  await page.getByRole("textbox", { name: "Message" }).fill("/tool mcp__notes__events {}");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText(/^Tool result: \[.*"ask_legacy:cancel"\]$/)).toBeVisible();
});
