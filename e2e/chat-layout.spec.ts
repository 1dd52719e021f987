import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { startHost, type TestHost } from "./host";

let host: TestHost;

test.beforeAll(async ({ request }) => {
  host = await startHost();
  await createChats(request, 40);
});

test.afterAll(async () => {
  await host.dispose();
});

/** Creates chats through the API, waiting out the host's rate limit when it answers 429. */
async function createChats(request: APIRequestContext, count: number) {
  for (let index = 0; index < count; ) {
    const response = await request.post(`${host.url}/api/sessions`, { data: { title: `Chat number ${index}` } });
    if (response.status() === 429) {
      const seconds = Number(response.headers()["retry-after"] ?? "1");
      await new Promise((resolve) => setTimeout(resolve, Math.min(5, Math.max(0.1, seconds)) * 1000));
      continue;
    }
    expect(response.status()).toBe(201);
    index += 1;
  }
}

async function expectInViewport(page: Page, locator: Locator, name: string) {
  const box = await locator.boundingBox();
  expect(box, `${name} has a layout box`).not.toBeNull();
  const viewport = page.viewportSize()!;
  expect(box!.x, `${name} starts inside the viewport`).toBeGreaterThanOrEqual(0);
  expect(box!.y, `${name} starts inside the viewport`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${name} ends inside the viewport`).toBeLessThanOrEqual(viewport.width + 0.5);
  expect(box!.y + box!.height, `${name} ends inside the viewport`).toBeLessThanOrEqual(viewport.height + 0.5);
}

/** How many lines the element's text is laid out on. */
async function linesOf(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  });
}

async function expectListScrolls(list: Locator) {
  const before = await list.evaluate((element) => ({ scrollHeight: element.scrollHeight, clientHeight: element.clientHeight }));
  expect(before.scrollHeight).toBeGreaterThan(before.clientHeight);
  await list.hover();
  await list.evaluate((element) => element.scrollBy({ top: 400 }));
  await expect.poll(() => list.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 360, height: 740 },
]) {
  test.describe(`${viewport.width}×${viewport.height} with 40 chats`, () => {
    test.use({ viewport });

    test("the composer, Send, the panel's primary button and the sidebar settings stay inside the viewport and the chat list scrolls", async ({ page }) => {
      await page.goto(host.url);
      const composer = page.getByRole("textbox", { name: "Message" });
      await expectInViewport(page, composer, "the composer");
      await expectInViewport(page, page.getByRole("button", { name: "Send" }), "Send");

      const narrow = viewport.width < 720;
      const openDrawer = async () => {
        if (narrow) await page.getByRole("button", { name: "Sessions" }).click();
      };
      await openDrawer();
      const nav = page.getByRole("navigation", { name: "Chats" });
      await expect(nav.getByRole("link", { name: /Chat number/ }).first()).toBeVisible();
      // The drawer slides in: measure once its transition has finished.
      await nav.evaluate((element) => Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished)));
      await expectInViewport(page, nav.getByRole("combobox", { name: "Language" }), "the language setting");
      await expectInViewport(page, nav.getByRole("button", { name: "New chat" }), "New chat");
      // The outer list scrolls; each date group inside it is a list of its own.
      await expectListScrolls(nav.getByRole("list").first());
      await nav.getByRole("button", { name: "New chat" }).click();

      await composer.fill(`/ask ${JSON.stringify({ questions: [{ id: "go", question: "Go ahead with the plan?", options: [{ label: "Yes" }, { label: "No" }] }] })}`);
      await page.getByRole("button", { name: "Send" }).click();
      const panel = page.getByRole("region", { name: "Go ahead with the plan?" });
      await expect(panel).toBeVisible();
      // The tool row keeps its title and its status whole; the first question's excerpt is what gives way.
      const toolRow = page.locator(".tool-row");
      await expect(toolRow.locator(".tool-row__summary")).toHaveText("waiting");
      expect(await linesOf(toolRow.locator(".tool-row__title")), "the tool row's title").toBe(1);
      expect(await linesOf(toolRow.locator(".tool-row__summary")), "the tool row's status").toBe(1);
      await expectInViewport(page, toolRow.locator(".tool-row__summary"), "the tool row's status");
      // The panel arrived while the composer had focus, so it is passive; Alt+Q turns to it, as a user would.
      await page.keyboard.press("Alt+KeyQ");
      await expectInViewport(page, panel.getByRole("button", { name: "Submit" }), "the panel's Submit");
      await panel.getByRole("radio", { name: "Yes" }).click();
      await expect(panel).toBeHidden();
      await expectInViewport(page, composer, "the composer after the answer");
      expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(viewport.height);
    });
  });
}
