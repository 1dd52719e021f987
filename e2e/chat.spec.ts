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
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
}

test("the page is titled Parley and a first message starts a session that streams the reply", async ({ page }) => {
  await page.goto(host.url);
  await expect(page).toHaveTitle("Parley");
  await send(page, "/echo Hello from the scripted model");
  await expect(page.getByText("Hello from the scripted model", { exact: true }).last()).toBeVisible();
  await expect(page.locator(".message--user")).toHaveText(/\/echo Hello from the scripted model/);
  await expect(page).toHaveURL(/#session=/);
  await expect(page.getByRole("navigation", { name: "Chats" }).getByRole("link")).toHaveCount(1);
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("");
  await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();
});

test("New chat opens an empty conversation and the sidebar lists sessions newest first", async ({ page }) => {
  await page.goto(host.url);
  await send(page, "/echo first chat");
  await expect(page.getByText("first chat", { exact: true }).last()).toBeVisible();
  await page.getByRole("button", { name: "New chat" }).click();
  await expect(page.getByText("Start a conversation")).toBeVisible();
  await send(page, "/echo second chat");
  await expect(page.getByText("second chat", { exact: true }).last()).toBeVisible();

  const links = page.getByRole("navigation", { name: "Chats" }).getByRole("link");
  const titles = await links.allTextContents();
  expect(titles.indexOf(titles.find((title) => title.includes("second chat"))!)).toBeLessThan(titles.indexOf(titles.find((title) => title.includes("first chat"))!));
  await links.filter({ hasText: "first chat" }).click();
  await expect(page.getByText("first chat", { exact: true }).last()).toBeVisible();
  await expect(links.filter({ hasText: "first chat" })).toHaveAttribute("aria-current", "page");
});

test("the sidebar badges a session while a question or a plan review is pending", async ({ page }) => {
  await page.goto(host.url);
  await send(page, `/ask ${JSON.stringify({ questions: [{ id: "go", question: "Go ahead?", options: [{ label: "Yes" }, { label: "No" }] }] })}`);
  const current = page.getByRole("navigation", { name: "Chats" }).locator("[aria-current=page]");
  await expect(current).toContainText("Waiting for answer");
  // The badge goes under the title, so a badged row's title keeps the row's width and the row stays within 44 px.
  const title = current.locator(".session-item__title");
  await expect(title).toHaveText("Go ahead?");
  await page.evaluate(() => document.fonts.ready);
  expect(await title.evaluate((element) => ({ cut: element.scrollWidth > element.clientWidth, row: element.closest("li")!.getBoundingClientRect().height <= 44 }))).toEqual({ cut: false, row: true });
  // The panel arrived while the composer had focus, so it is passive; Alt+Q turns to it, as a user would.
  await expect(page.getByRole("region", { name: "Go ahead?" })).toBeVisible();
  await page.keyboard.press("Alt+KeyQ");
  await page.getByRole("region", { name: "Go ahead?" }).getByRole("radio", { name: "Yes" }).click();
  await expect(current).not.toContainText("Waiting for answer");

  await page.getByRole("button", { name: "New chat" }).click();
  await send(page, "/plan 1. Write the tests\n2. Make them pass");
  await expect(page.getByRole("navigation", { name: "Chats" }).locator("[aria-current=page]")).toContainText("Plan awaiting review");
  await expect(page.getByRole("button", { name: "Approve" })).toBeVisible();
  await page.keyboard.press("Alt+KeyQ");
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("Plan approved.", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /Plan review\s*approved/ })).toBeVisible();
});

test("a badged row gives its title the row's width, its badge whole, and its time the end of the badges' line", async ({ page }) => {
  await page.goto(host.url);
  const question = "Which deployment target should staging use from now on?";
  await send(page, `/ask ${JSON.stringify({ questions: [{ id: "target", question, options: [{ label: "Fly" }, { label: "Render" }] }] })}`);
  const current = page.getByRole("navigation", { name: "Chats" }).locator("[aria-current=page]");
  await expect(current).toContainText("Waiting for answer");
  // The time is read from after the link, as on every row; the one on the badges' line is only shown.
  await expect(current).toHaveAccessibleName(`${question} Waiting for answer`);
  await page.evaluate(() => document.fonts.ready);
  const layout = await current.evaluate((link) => {
    const badge = link.querySelector<HTMLElement>(".session-item__badge")!;
    const title = link.querySelector(".session-item__title")!.getBoundingClientRect();
    const row = link.closest("li")!;
    // The time a sighted user sees: the row's one time element that has a size.
    const time = [...row.querySelectorAll("time")].find((element) => element.getBoundingClientRect().width > 1)!;
    const linkEnd = link.getBoundingClientRect().right - parseFloat(getComputedStyle(link).paddingRight);
    return {
      badgeCut: badge.scrollWidth > badge.clientWidth,
      timeInTheRowsLink: link.contains(time),
      timeUnderTitle: time.getBoundingClientRect().top >= title.bottom - 1,
      titleToTheLinksEnd: title.right >= linkEnd - 1,
      rowWithin44: row.getBoundingClientRect().height <= 44,
      // Hidden but read: placed within its row, so it scrolls with the list and never stretches the page.
      readTimeInItsRow: row.querySelector<HTMLElement>("time.ui-visually-hidden")?.offsetParent === row,
    };
  });
  expect(layout).toEqual({ badgeCut: false, timeInTheRowsLink: true, timeUnderTitle: true, titleToTheLinksEnd: true, rowWithin44: true, readTimeInItsRow: true });
});

test("the chat page has no axe violations, in light and dark", async ({ page }) => {
  await page.goto(host.url);
  await send(page, "/echo **bold** and a [link](https://example.com)");
  await expect(page.getByRole("link", { name: "link", exact: true })).toBeVisible();
  await send(page, `/ask ${JSON.stringify({ questions: [{ id: "q", question: "Pick one?", options: [{ label: "A" }, { label: "B" }] }] })}`);
  await expect(page.getByRole("region", { name: "Pick one?" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press("Alt+KeyQ");
  await page.getByRole("region", { name: "Pick one?" }).getByRole("button", { name: "Dismiss all questions" }).click();
  await expect(page.getByRole("button", { name: /Ask question\s*cancelled/ })).toBeVisible();
  await page.getByRole("button", { name: /Ask question\s*cancelled/ }).click();
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoAxeViolations(page);
});

test.describe("at 360 px", () => {
  test.use({ viewport: { width: 360, height: 640 } });

  test("the sidebar is a drawer behind the Sessions button and the chat stays usable", async ({ page }) => {
    await page.goto(host.url);
    await send(page, "/echo small screen");
    await expect(page.getByText("small screen", { exact: true }).last()).toBeVisible();
    const drawer = page.getByRole("navigation", { name: "Chats" });
    await expect(drawer).toBeHidden();
    const toggle = page.getByRole("button", { name: "Sessions" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await toggle.click();
    await expect(drawer).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await toggle.click();
    await drawer.getByRole("button", { name: "New chat" }).click();
    await expect(drawer).toBeHidden();
    await expect(page.getByText("Start a conversation")).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    await expectNoAxeViolations(page);
  });

  test("the Sessions button counts the other chats a question waits in, and the count goes once the chat is open", async ({ page }) => {
    await page.goto(host.url);
    await send(page, "/echo the chat on screen");
    await expect(page.getByText("the chat on screen", { exact: true }).last()).toBeVisible();
    // This file's host is shared: chats other tests left waiting count too.
    const counted = page.locator(".shell__drawer-count");
    const before = (await counted.count()) === 0 ? 0 : Number(await counted.textContent());
    const named = (count: number) => (count === 0 ? "Sessions" : `Sessions, ${count} waiting for you`);
    const created = await fetch(`${host.url}/api/sessions`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    const elsewhere = ((await created.json()) as { session: { id: string } }).session.id;
    const ask = { questions: [{ id: "db", header: "Database", question: "Which database?", options: [{ label: "SQLite" }, { label: "Postgres" }] }] };
    const posted = await fetch(`${host.url}/api/sessions/${elsewhere}/messages`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text: `/ask ${JSON.stringify(ask)}` }) });
    expect(posted.status).toBe(202);
    const toggle = page.getByRole("button", { name: named(before + 1), exact: true });
    await expect(toggle).toBeVisible();
    await expect(toggle.locator(".shell__drawer-count")).toHaveText(String(before + 1));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: "dark" });
    await expectNoAxeViolations(page);
    await toggle.click();
    await page.getByRole("navigation", { name: "Chats" }).getByRole("link", { name: /Database/ }).click();
    await expect(page.getByRole("radio", { name: /SQLite/ })).toBeVisible();
    await expect(page.getByRole("button", { name: named(before), exact: true })).toBeVisible();
  });
});

test("switching the language to 简体中文 shows the Chinese copy and is remembered", async ({ page }) => {
  await page.goto(host.url);
  await page.getByRole("combobox", { name: "Language" }).selectOption("zh-CN");
  await expect(page.getByRole("button", { name: "新对话" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "消息" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("button", { name: "发送" })).toBeVisible();
});

test("a browser in Chinese gets its first screen in Chinese, from a chunk of its own; when that chunk cannot load, the page is in English until it can", async ({ browser }) => {
  const context = await browser.newContext({ locale: "zh-CN" });
  const page = await context.newPage();
  const chunks: string[] = [];
  page.on("request", (request) => {
    if (/\/assets\/zh-CN-[^/]+\.js$/.test(request.url())) chunks.push(new URL(request.url()).pathname);
  });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(host.url);
  await expect(page.getByRole("textbox", { name: "消息" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  expect(chunks).toHaveLength(1);

  const offline = await context.newPage();
  const warnings: string[] = [];
  offline.on("console", (message) => {
    if (message.type() === "warning") warnings.push(message.text());
  });
  offline.on("pageerror", (error) => errors.push(error.message));
  await offline.route(/\/assets\/zh-CN-[^/]+\.js$/, (route) => route.abort("internetdisconnected"));
  await offline.goto(host.url);
  await expect(offline.getByRole("textbox", { name: "Message" })).toBeVisible();
  await expect(offline.locator("html")).toHaveAttribute("lang", "en");
  await expect(offline.getByRole("combobox", { name: "Language" })).toHaveValue("en");
  await expect.poll(() => warnings.some((text) => text.startsWith("could not load the zh-CN texts"))).toBe(true);
  await offline.getByRole("combobox", { name: "Language" }).selectOption("zh-CN");
  await expect.poll(() => warnings.filter((text) => text.startsWith("could not load the zh-CN texts")).length).toBeGreaterThanOrEqual(2);
  await expect(offline.getByRole("combobox", { name: "Language" })).toHaveValue("en");
  await expect(offline.getByRole("textbox", { name: "Message" })).toBeVisible();

  await offline.unroute(/\/assets\/zh-CN-[^/]+\.js$/);
  await offline.getByRole("combobox", { name: "Language" }).selectOption("zh-CN");
  await expect(offline.getByRole("textbox", { name: "消息" })).toBeVisible();
  await expect(offline.locator("html")).toHaveAttribute("lang", "zh-CN");
  expect(errors).toEqual([]);
  await context.close();
});

test("a switch to Chinese whose texts come in after a switch back to English leaves the page in English", async ({ browser }) => {
  const context = await browser.newContext({ locale: "en-GB" });
  const page = await context.newPage();
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = 0;
  await page.route(/\/assets\/zh-CN-[^/]+\.js$/, async (route) => {
    asked += 1;
    await held;
    await route.continue();
  });
  await page.goto(host.url);
  const language = page.getByRole("combobox", { name: "Language" });
  await expect(language).toHaveValue("en");
  await expect.poll(() => asked).toBeGreaterThanOrEqual(1);
  await language.selectOption("zh-CN");
  await language.selectOption("en");
  const loaded = page.waitForResponse(/\/assets\/zh-CN-[^/]+\.js$/);
  release();
  const chunk = (await loaded).url();
  // Once the chunk's module is in, the app's own wait for it has ended too; a task later, whatever it applies is applied.
  await page.evaluate(async (url) => {
    await import(url);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }, chunk);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(language).toHaveValue("en");
  expect(await page.evaluate(() => localStorage.getItem("parley.locale"))).toBe("en");
  // With the texts in, a switch applies at once.
  await language.selectOption("zh-CN");
  await expect(page.getByRole("combobox", { name: "语言" })).toHaveValue("zh-CN");
  await page.getByRole("combobox", { name: "语言" }).selectOption("en");
  await expect(language).toHaveValue("en");
  expect(await page.evaluate(() => localStorage.getItem("parley.locale"))).toBe("en");
  await context.close();
});

test("a 5,000-message transcript keeps a bounded DOM while it scrolls and streams (frame times are reported, not asserted)", async ({ page }) => {
  // Five thousand rows and four hundred frames through the test's socket: on a loaded machine this takes minutes, not seconds.
  test.slow();
  const created = await page.request.post(`${host.url}/api/sessions`, { data: { title: "Long chat" } });
  const { session } = (await created.json()) as { session: { id: string; title: string; createdAt: string; updatedAt: string; state: string } };
  const messages = Array.from({ length: 5000 }, (_, index) => ({
    id: `m${index}`,
    sessionId: session.id,
    role: index % 2 === 0 ? "user" : "assistant",
    createdAt: session.createdAt,
    text: index % 2 === 0 ? `Question number ${index}` : `Answer number ${index} with **markdown**, a list:\n\n- one\n- two\n\nand \`code\`.`,
  }));
  await page.route(`${host.url}/api/sessions/${session.id}`, (route) => route.fulfill({ json: { session, messages } }));
  let inject: (frame: object) => void = () => undefined;
  await page.routeWebSocket("**/api/mux", (socket) => {
    const server = socket.connectToServer();
    server.onMessage((message) => socket.send(message));
    inject = (frame) => socket.send(JSON.stringify(frame));
  });

  await page.goto(`${host.url}/#session=${session.id}`);
  const transcript = page.getByRole("region", { name: "Messages" });
  await expect(transcript.getByText("Answer number 4999", { exact: false })).toBeVisible();
  const loadedAt = await page.evaluate(() => performance.now());
  // Transcript rows only: the markdown's own list items are not rows.
  const rows = transcript.locator(".transcript__row");
  await expect(rows).toHaveCount(200);

  const sampleFrames = (work: string) =>
    page.evaluate(async (script) => {
      const frames: number[] = [];
      let last = performance.now();
      let running = true;
      const tick = (now: number) => {
        frames.push(now - last);
        last = now;
        if (running) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      await new Function(`return (async () => { ${script} })()`)();
      running = false;
      const sorted = frames.slice(1).sort((a, b) => a - b);
      return { frames: sorted.length, p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0, max: sorted.at(-1) ?? 0 };
    }, work);

  const scrolling = await sampleFrames(`
    const list = document.querySelector('section.transcript');
    for (let step = 0; step < 120; step++) {
      list.scrollTop = Math.max(0, list.scrollTop - 400);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  `);
  const rowsAfterScroll = await rows.count();
  expect(rowsAfterScroll).toBeGreaterThan(200);
  expect(rowsAfterScroll).toBeLessThanOrEqual(5000);

  await transcript.evaluate((list) => list.scrollTo({ top: list.scrollHeight }));
  const idle = await sampleFrames(`await new Promise((resolve) => setTimeout(resolve, 1000));`);
  const controlDone = sampleFrames(`await new Promise((resolve) => setTimeout(resolve, 1500));`);
  for (let index = 0; index < 200; index++) {
    inject({ type: "message/delta", sessionId: "elsewhere", messageId: "elsewhere", text: "x" });
    await page.waitForTimeout(5);
  }
  const control = await controlDone;
  inject({ type: "message/upserted", message: { id: "streaming", sessionId: session.id, role: "assistant", createdAt: session.createdAt, text: "" } });
  const streamingStart = page.evaluate(() => performance.now());
  const pieces = Array.from({ length: 200 }, (_, index) => `word${index} `);
  const streamingDone = sampleFrames(`await new Promise((resolve) => setTimeout(resolve, 1500));`);
  for (const piece of pieces) {
    inject({ type: "message/delta", sessionId: session.id, messageId: "streaming", text: piece });
    await page.waitForTimeout(5);
  }
  const streaming = await streamingDone;
  await streamingStart;
  await expect(transcript.getByText(pieces.join("").trim(), { exact: true })).toBeVisible();

  const report = `first render ${Math.round(loadedAt)} ms after navigation start; scrolling ${scrolling.frames} frames p95 ${scrolling.p95.toFixed(1)} ms max ${scrolling.max.toFixed(1)} ms (rows in DOM after scrolling up: ${rowsAfterScroll}); idle ${idle.frames} frames p95 ${idle.p95.toFixed(1)} ms; 200 deltas to another session ${control.frames} frames p95 ${control.p95.toFixed(1)} ms; streaming 200 deltas ${streaming.frames} frames p95 ${streaming.p95.toFixed(1)} ms max ${streaming.max.toFixed(1)} ms`;
  test.info().annotations.push({ type: "measurement", description: report });
  console.log(`[transcript 5,000 messages] ${report}`);
});
