import { expect, test, type Page } from "@playwright/test";
import { startHost, type TestHost } from "./host";

let host: TestHost;

test.beforeAll(async () => {
  host = await startHost();
});

test.afterAll(async () => {
  await host.dispose();
});

async function presentPlan(page: Page, plan: string) {
  await page.goto(host.url);
  await page.getByRole("textbox", { name: "Message" }).fill(`/plan ${plan}`);
  await page.getByRole("button", { name: "Send" }).click();
  const card = page.getByRole("region", { name: "Approve this plan?" });
  await expect(card).toBeVisible();
  return card;
}

test("Keep planning sends the typed note as the feedback", async ({ page }) => {
  const card = await presentPlan(page, "1. Rewrite everything");
  await card.getByRole("textbox", { name: "Anything to add?" }).fill("smaller steps, please");
  await card.getByRole("button", { name: "Keep planning" }).click();
  await expect(page.getByText("Keep planning: smaller steps, please", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: /Plan review\s*changes requested/ }).click();
  await expect(page.getByText("smaller steps, please", { exact: true }).first()).toBeVisible();
});

test("Chat about it stops the turn, keeps the plan readable and moves the note into the composer, focused", async ({ page }) => {
  const card = await presentPlan(page, "1. Drop the **users** table");
  await card.getByRole("textbox", { name: "Anything to add?" }).fill("Why drop it? We need the data.");
  await card.getByRole("button", { name: "Chat about it" }).click();

  await expect(card).toBeHidden();
  const composer = page.getByRole("textbox", { name: "Message" });
  await expect(composer).toBeVisible();
  await expect(composer).toHaveValue("Why drop it? We need the data.");
  await expect(composer).toBeFocused();
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  const row = page.getByRole("button", { name: /Plan review\s*interrupted/ });
  await expect(row).toBeVisible();
  await row.click();
  await expect(page.getByText("users", { exact: true })).toBeVisible();
  const { messages } = (await (await page.request.get(`${host.url}/api/sessions/${decodeURIComponent(/#session=(.+)$/.exec(page.url())![1]!)}`)).json()) as {
    messages: { role: string; text?: string }[];
  };
  expect(messages.map((message) => message.role)).toEqual(["user", "tool"]);

  await composer.press("Enter");
  await expect(page.getByText("Why drop it? We need the data.", { exact: true })).toBeVisible();
});
