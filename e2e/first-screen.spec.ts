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

async function expectNoAxeViolations(page: Page) {
  // axe's skip-link rule reads every `#…` link as a skip link to an element with that id; a chat's link is `#session=<id>`,
  // a route the app handles, so the rule is off here (the skip link to the composer is checked by hand below).
  const results = await new AxeBuilder({ page }).disableRules(["skip-link"]).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
}

async function expectAxeCleanInBothThemes(page: Page) {
  await page.emulateMedia({ colorScheme: "light" });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: "light" });
}

const nav = (page: Page) => page.getByRole("navigation", { name: "Chats" });

test("an empty chat with the demo model says so, offers starters and /demo, and the / menu completes a command", async ({ page }) => {
  await page.goto(host.url);
  await expect(page.getByText("This host runs the demo model: scripted replies, no AI behind them. Type / for its commands, or try one:")).toBeVisible();
  await expect(page.getByRole("link", { name: "See every question and card state at /demo" })).toHaveAttribute("href", "/demo");
  await expectAxeCleanInBothThemes(page);

  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.press("/");
  const menu = page.getByRole("listbox", { name: "Commands" });
  await expect(menu.getByRole("option")).toHaveCount(3);
  await expect(page.getByText("↑ ↓ to choose · Enter or Tab to complete · Esc to close")).toBeVisible();
  await expectNoAxeViolations(page);
  // A click outside the box closes it, the text kept; focusing the box opens it again, and a click on a command completes it.
  await page.getByRole("heading", { level: 1 }).click();
  await expect(menu).toBeHidden();
  await expect(composer).toHaveValue("/");
  await composer.click();
  await expect(menu.getByRole("option")).toHaveCount(3);
  await menu.getByRole("option", { name: /^\/plan/ }).click();
  await expect(composer).toHaveValue("/plan ");
  await expect(composer).toBeFocused();
  await expect(menu).toBeHidden();
  await composer.fill("/");
  await composer.press("e");
  await composer.press("Enter");
  await expect(composer).toHaveValue("/echo ");
  await expect(menu).toBeHidden();
  await composer.pressSequentially("Dark mode for the settings page");
  await composer.press("Enter");
  await expect(nav(page).getByRole("link", { name: "Dark mode for the settings page" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dark mode for the settings page");
});

test("the /ask starter sends a sample batch: its pending row shows its first question, and the panel fits half an 800 px window", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(host.url);
  await page.getByRole("button", { name: "/ask a sample batch" }).click();
  const panel = page.getByRole("region", { name: "What would you like to try first?" });
  await expect(panel).toBeVisible();
  await expect(page.getByRole("region", { name: "Messages" }).getByText("What would you like to try first?", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Messages" }).getByText("+1 more")).toBeVisible();
  const box = await panel.boundingBox();
  // About half the window: 447 px (56 %) for this two-question batch with its stepper, header and footer.
  expect(box?.height).toBeLessThanOrEqual(800 * 0.57);
  await panel.getByRole("radio", { name: /A plan review/ }).click();
  await expect(page.getByRole("button", { name: "Question 1 of 2, answered" })).toHaveText("✓First look");
  await expect(nav(page).getByRole("heading", { name: "Waiting for you" })).toBeVisible();
  await expectAxeCleanInBothThemes(page);
});

test("the sidebar shows at least 12 chats in an 800 px window, under Today, with actions behind …, and a skip link reaches the composer", async ({ page }) => {
  for (let index = 0; index < 14; index++) {
    const created = await page.request.post(`${host.url}/api/sessions`, { data: { title: `Listed chat ${index + 1}` } });
    expect(created.ok()).toBe(true);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(host.url);
  const links = nav(page).getByRole("link");
  await expect(links.first()).toBeVisible();
  const visible = await links.evaluateAll((elements) =>
    elements.filter((element) => {
      const box = element.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    }).length,
  );
  expect(visible).toBeGreaterThanOrEqual(12);
  const rowHeight = await links.first().evaluate((element) => element.closest("li")!.getBoundingClientRect().height);
  expect(rowHeight).toBeGreaterThanOrEqual(32);
  expect(rowHeight).toBeLessThanOrEqual(44);
  await expect(nav(page).getByRole("heading", { name: "Today" })).toBeVisible();

  const actions = nav(page).getByRole("button", { name: "Actions for “Listed chat 14”" });
  await actions.click();
  await expect(nav(page).getByRole("menu")).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press("Escape");
  await expect(nav(page).getByRole("menu")).toBeHidden();
  await expect(actions).toBeFocused();

  await page.reload();
  await expect(nav(page).getByRole("link").first()).toBeVisible();
  const skip = page.getByRole("link", { name: "Skip to the message box" });
  expect(await skip.evaluate((link) => document.querySelector("a[href], button, input, select, textarea") === link)).toBe(true);
  await skip.focus();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();
  await expectAxeCleanInBothThemes(page);
});

test("on a phone the drawer has a backdrop and a Close button, and axe is clean at 360×740", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(host.url);
  await expectAxeCleanInBothThemes(page);
  const toggle = page.getByRole("button", { name: "Sessions" });
  await toggle.click();
  const close = page.getByRole("button", { name: "Close the chat list" });
  await expect(close).toBeFocused();
  await expect(page.locator(".shell__scrim")).toBeVisible();
  await expectAxeCleanInBothThemes(page);
  await close.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(toggle).toBeFocused();
  await toggle.click();
  await page.locator(".shell__scrim").click({ position: { x: 340, y: 400 } });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
});

test("the / menu keeps the command the arrows choose in view when its list scrolls, on a short phone screen", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 420 });
  await page.goto(host.url);
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.click();
  await composer.press("/");
  const list = page.getByRole("listbox", { name: "Commands" });
  await expect(list.getByRole("option")).toHaveCount(3);
  // The list holds less than its three commands at this height.
  expect(await list.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
  const inView = async () => {
    const [box, option] = [await list.boundingBox(), await list.locator('[aria-selected="true"]').boundingBox()];
    return option!.y >= box!.y - 0.5 && option!.y + option!.height <= box!.y + box!.height + 0.5;
  };
  for (let step = 0; step < 3; step++) {
    await composer.press(step < 2 ? "ArrowDown" : "ArrowUp");
    await expect.poll(inView).toBe(true);
  }
});

test("on a phone the Undo toast covers none of the drawer's top controls, the Sessions button, the message box or Send", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(host.url);
  const composer = page.getByRole("textbox", { name: "Message" });
  const sessions = page.getByRole("button", { name: /^Sessions/ });
  for (const text of ["one", "two", "three"]) {
    if (text !== "one") {
      await sessions.click();
      await page.getByRole("button", { name: "New chat" }).click();
    }
    await composer.fill(`/echo ${text}`);
    await composer.press("Enter");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(text);
  }
  const toast = page.getByRole("button", { name: "Undo" }).locator("..");
  const clear = async (names: [string, RegExp | string][]) => {
    const box = (await toast.boundingBox())!;
    const hit: string[] = [];
    for (const [label, name] of names) {
      const other = (await page.getByRole(label === "textbox" ? "textbox" : "button", { name, exact: typeof name === "string" }).boundingBox())!;
      if (box.x < other.x + other.width && other.x < box.x + box.width && box.y < other.y + other.height && other.y < box.y + box.height) hit.push(String(name));
    }
    return hit;
  };
  // From the drawer, a chat that is not open: the drawer stays, with its top row.
  await sessions.click();
  await page.getByRole("button", { name: "Actions for “one”" }).click();
  await page.getByRole("menuitem", { name: /Delete/ }).click();
  await expect(toast).toBeVisible();
  expect(await clear([["button", "New chat"], ["button", "Close the chat list"]])).toEqual([]);
  // The open chat: the drawer closes on the conversation.
  await page.getByRole("button", { name: "Actions for “three”" }).click();
  await page.getByRole("menuitem", { name: /Delete/ }).click();
  await expect(page.getByRole("button", { name: "Close the chat list" })).toBeHidden();
  await expect(toast).toHaveText(/Deleted “three”/);
  expect(await clear([["button", /^Sessions/], ["textbox", "Message"], ["button", "Send"]])).toEqual([]);
});
