import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { startHost, type TestHost } from "./host";

let host: TestHost;

test.beforeEach(async () => {
  host = await startHost();
});

test.afterEach(async () => {
  await host.dispose();
});

const MESSAGES_ROUTE = "**/api/sessions/*/messages";

async function expectNoAxeViolations(page: Page) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((violation) => `${scheme} ${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });
}


async function openChat(page: Page) {
  await page.goto(host.url);
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.fill("/echo ready");
  await composer.press("Enter");
  await expect(page.getByRole("region", { name: "Messages" }).getByText("ready", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Stop" })).toBeHidden();
  return composer;
}

test("text typed right after Enter is kept while the POST is slow, and a failing POST puts the sent text back in front of it", async ({ page }) => {
  const composer = await openChat(page);
  let release: () => void = () => undefined;
  await page.route(MESSAGES_ROUTE, async (route) => {
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    await route.continue();
  });
  await composer.fill("/echo a");
  await composer.press("Enter");
  await expect(composer).toHaveValue("");
  await composer.pressSequentially("typed while it was in flight");
  release();
  await expect(page.getByRole("region", { name: "Messages" }).getByText("a", { exact: true })).toBeVisible();
  await expect(composer).toHaveValue("typed while it was in flight");
  await expect(page.getByRole("button", { name: "Stop" })).toBeHidden();

  await page.unroute(MESSAGES_ROUTE);
  await page.route(MESSAGES_ROUTE, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await route.abort("failed");
  });
  await composer.fill("/echo lost?");
  await composer.press("Enter");
  await expect(composer).toHaveValue("");
  await composer.pressSequentially("and more");
  await expect(page.getByRole("alert")).toHaveText("Your message was not sent and is back in the box. Parley's host cannot be reached; check that it is running.Retry");
  await expect(composer).toHaveValue("/echo lost?\nand more");
});

test("an Enter pressed after the reply streamed in but before its POST answered sends once the answer is in", async ({ page }) => {
  const composer = await openChat(page);
  const transcript = page.getByRole("region", { name: "Messages" });
  let answer: () => void = () => undefined;
  let held = 0;
  await page.route(MESSAGES_ROUTE, async (route) => {
    if (route.request().method() !== "POST" || held++ > 0) return route.continue();
    const response = await route.fetch();
    await new Promise<void>((resolve) => {
      answer = resolve;
    });
    await route.fulfill({ response });
  });
  await composer.fill("/echo first");
  await composer.press("Enter");
  await expect(transcript.getByText("first", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Stop" })).toBeHidden();
  await composer.fill("/echo second");
  await composer.press("Enter");
  await expect(composer).toHaveValue("/echo second");
  answer();
  await expect(transcript.getByText("second", { exact: true })).toBeVisible();
  await expect(composer).toHaveValue("");
  await expect(transcript.getByRole("listitem")).toHaveText([/\/echo ready/, /ready/, /\/echo first/, /first/, /\/echo second/, /second/]);
});

test("with the host stopped a translated banner says so, a send says it failed, and after the restart the banner goes and Retry sends", async ({ page }) => {
  const composer = await openChat(page);
  await host.stop();
  const banner = page.getByRole("status").filter({ hasText: "Reconnecting" });
  await expect(banner).toHaveText("Parley's host is unreachable. Reconnecting…Retry now");
  await composer.fill("/echo after the outage");
  await composer.press("Enter");
  await expect(page.getByRole("alert")).toHaveText("Your message was not sent and is back in the box. Parley's host cannot be reached; check that it is running.Retry");
  await expectNoAxeViolations(page);

  await page.getByRole("combobox", { name: "Language" }).selectOption("zh-CN");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page.getByRole("status").filter({ hasText: "正在重新连接" })).toHaveText("无法连接到 Parley 主机，正在重新连接…立即重试");
  await page.getByRole("combobox", { name: "语言" }).selectOption("en");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");

  await host.restart();
  // The backoff may already have brought the socket back, so press Retry now only if it is still there (evaluateAll does not wait).
  await page.getByRole("button", { name: "Retry now" }).evaluateAll((buttons) => buttons.forEach((button) => (button as HTMLButtonElement).click()));
  await expect(banner).toBeHidden();
  await expect(page.getByText("Parley's host is unreachable", { exact: false })).toBeHidden();
  await page.getByRole("button", { name: "Retry", exact: true }).click();
  await expect(page.getByRole("region", { name: "Messages" }).getByText("after the outage", { exact: true })).toBeVisible();
  await expect(page.getByRole("alert")).toBeHidden();
  await expect(composer).toHaveValue("");
});

test("Retry now pressed from the keyboard leaves focus in the message box once the banner goes", async ({ page }) => {
  const composer = await openChat(page);
  await host.stop();
  const retryNow = page.getByRole("button", { name: "Retry now" });
  await retryNow.focus();
  await expect(retryNow).toBeFocused();
  // An attempt to reconnect while the host is down keeps the banner, and Retry now with the focus it holds.
  await page.waitForEvent("websocket", { timeout: 30_000 });
  await expect(page.getByRole("status").filter({ hasText: "Reconnecting" })).toBeVisible();
  await expect(retryNow).toBeFocused();
  await host.restart();
  // The backoff may bring the socket back first: Retry now then goes with focus on it all the same, and Enter in the empty box sends nothing.
  await page.keyboard.press("Enter");
  await expect(retryNow).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Reconnecting" })).toBeHidden();
  await expect(composer).toBeFocused();
  await expect(page.getByRole("region", { name: "Messages" }).getByRole("listitem")).toHaveCount(2);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

  test("Enter inserts a newline and the Send button sends", async ({ page }) => {
    await page.goto(host.url);
    const composer = page.getByRole("textbox", { name: "Message" });
    await expect(composer).toHaveAttribute("placeholder", "Message Parley");
    await composer.fill("/echo first line");
    await composer.press("Enter");
    await composer.pressSequentially("second line");
    await expect(composer).toHaveValue("/echo first line\nsecond line");
    await page.getByRole("button", { name: "Send" }).tap();
    await expect(page.getByRole("region", { name: "Messages" }).locator(".message--user .message__text")).toHaveText("/echo first line\nsecond line");
  });
});
