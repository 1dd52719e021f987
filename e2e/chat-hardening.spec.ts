import { expect, test } from "@playwright/test";
import { startHost, type TestHost } from "./host";

let host: TestHost;

test.beforeAll(async () => {
  host = await startHost();
});

test.afterAll(async () => {
  await host.dispose();
});

test("an undecodable #session= hash opens the app on a new chat instead of a blank page", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`${host.url}/#session=%`);
  await expect(page.getByRole("button", { name: "New chat" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  await page.evaluate(() => {
    window.location.hash = "#session=%E0%A4%A";
  });
  await expect(page.getByText("Start a conversation")).toBeVisible();
  expect(errors).toEqual([]);
});

test("bidi controls in a chat title and message stay inside their own isolate", async ({ page }) => {
  await page.goto(host.url);
  const text = "\u202Eevorppa\u202C tail";
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
  const message = page.locator(".message--user .message__text");
  await expect(message).toHaveText(text);
  const isolation = await page.evaluate(() =>
    [".message--user .message__text", ".session-item__title", ".conversation__title"].map((selector) => {
      const element = document.querySelector(selector)!;
      return [selector, getComputedStyle(element).unicodeBidi, element.getAttribute("dir")];
    }),
  );
  expect(isolation).toEqual([
    [".message--user .message__text", "isolate", "auto"],
    [".session-item__title", "isolate", "auto"],
    [".conversation__title", "isolate", "auto"],
  ]);
});

test("the sidebar loads the next page of chats when its end scrolls into view", async ({ page, request }) => {
  for (let index = 0; index < 60; ) {
    const response = await request.post(`${host.url}/api/sessions`, { data: { title: `Paged chat ${index}` } });
    if (response.status() === 429) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      continue;
    }
    expect(response.status()).toBe(201);
    index += 1;
  }
  const pages: string[] = [];
  page.on("request", (sent) => {
    const url = new URL(sent.url());
    if (url.pathname === "/api/sessions" && sent.method() === "GET") pages.push(url.search);
  });
  await page.goto(host.url);
  const nav = page.getByRole("navigation", { name: "Chats" });
  const links = nav.getByRole("link", { name: /Paged chat/ });
  await expect(links.first()).toHaveText("Paged chat 59");
  await expect(links).toHaveCount(50);
  // The outer list scrolls; each date group inside it is a list of its own.
  await nav.getByRole("list").first().evaluate((list) => list.scrollTo({ top: list.scrollHeight }));
  await expect(links).toHaveCount(60);
  await expect(links.last()).toHaveText("Paged chat 0");
  await expect(nav.getByRole("button", { name: "Show more chats" })).toBeHidden();
  expect(pages.length).toBe(2);
  expect(pages[0]).toBe("?limit=50");
  expect(pages[1]).toMatch(/^\?limit=50&before=/);
});
