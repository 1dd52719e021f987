import { expect, test, type Locator, type Page } from "@playwright/test";
import { startHost, type TestHost } from "./host";

let host: TestHost;

test.beforeAll(async () => {
  host = await startHost();
});

test.afterAll(async () => {
  await host.dispose();
});

const manyOptions = {
  questions: [
    {
      id: "region",
      header: "Deployment",
      question: "Which region should the service run in? Pick the one closest to most of your users.",
      options: Array.from({ length: 30 }, (_, index) => ({
        label: index === 0 ? `Region ${index + 1} (Recommended)` : `Region ${index + 1}`,
        description: `Data centre number ${index + 1}, with a description long enough to wrap on a phone`,
      })),
    },
    { id: "notes", question: "Anything else?" },
  ],
};

const shortQuestion = { questions: [{ id: "ship", question: "Ship it?", options: [{ label: "Yes" }, { label: "No" }] }] };

async function ask(page: Page, args: object): Promise<Locator> {
  await page.goto(host.url);
  await page.getByRole("textbox", { name: "Message" }).fill(`/ask ${JSON.stringify(args)}`);
  await page.getByRole("button", { name: "Send" }).click();
  const panel = page.getByRole("region", { name: manyOptions.questions[0]!.question });
  await expect(panel).toBeVisible();
  // The composer keeps focus after sending, so the panel waits passively until the user turns to it.
  await page.keyboard.press("Alt+KeyQ");
  await expect(page.getByRole("textbox", { name: "Message" })).toBeHidden();
  return panel;
}

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, "element has a layout box").not.toBeNull();
  return box!;
}

function expectStacked(upper: Box, lower: Box, names: string) {
  expect(upper.y + upper.height, `${names} do not overlap`).toBeLessThanOrEqual(lower.y + 0.5);
}

function expectApart(a: Box, b: Box, names: string) {
  const separate = a.x + a.width <= b.x + 0.5 || b.x + b.width <= a.x + 0.5 || a.y + a.height <= b.y + 0.5 || b.y + b.height <= a.y + 0.5;
  expect(separate, `${names} do not overlap`).toBe(true);
}

// A phone, a laptop, and two short screens (a phone held sideways, a laptop zoomed to 200 %), where the panel is a
// bottom sheet beside the chat list.
for (const viewport of [
  { width: 360, height: 640 },
  { width: 1280, height: 800 },
  { width: 740, height: 360 },
  { width: 1280, height: 400 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("the panel's rows never overlap and all of it stays on screen", async ({ page }) => {
      const panel = await ask(page, manyOptions);
      const header = await boxOf(panel.locator(".question-panel__header"));
      const body = await boxOf(panel.locator(".question-panel__body"));
      const custom = await boxOf(panel.getByRole("textbox", { name: "Type your answer" }));
      const footer = await boxOf(panel.locator(".question-panel__footer"));
      expectStacked(header, body, "header and body");
      expectStacked(body, custom, "body and custom field");
      expectStacked(custom, footer, "custom field and footer");

      const panelBox = await boxOf(panel);
      expect(panelBox.y).toBeGreaterThanOrEqual(0);
      expect(panelBox.y + panelBox.height).toBeLessThanOrEqual(viewport.height + 0.5);
      expect(panelBox.x + panelBox.width).toBeLessThanOrEqual(viewport.width + 0.5);
      // The first options show, however short the screen.
      expect(body.height).toBeGreaterThanOrEqual(88);
      await expect(panel.getByRole("radio", { name: "Region 1", exact: true })).toBeInViewport({ ratio: 0.5 });
      if (viewport.width > 720) expectApart(panelBox, await boxOf(page.getByRole("navigation", { name: "Chats" })), "panel and the chat list");

      const controls = [
        panel.getByRole("button", { name: "Collapse the question card" }),
        panel.getByRole("button", { name: "Dismiss all questions" }),
        panel.getByRole("button", { name: "Previous question" }),
        panel.getByRole("button", { name: "Question 1 of 2, not answered yet" }),
        panel.getByRole("button", { name: "Next question" }),
        panel.getByRole("button", { name: "Skip this question" }),
        panel.getByRole("button", { name: "Next", exact: true }),
      ];
      const boxes = await Promise.all(controls.map(boxOf));
      for (let i = 0; i < boxes.length; i++) {
        await expect(controls[i]!).toBeInViewport();
        for (let j = i + 1; j < boxes.length; j++) expectApart(boxes[i]!, boxes[j]!, `controls ${i} and ${j}`);
      }
      // The stepper is one line of small items (WCAG 2.5.8's 24 px minimum); every other control is a 44 px tap target.
      const stepItems = new Set(await panel.locator(".question-stepper__item button").evaluateAll((buttons) => buttons.map((button) => button.getAttribute("aria-label") ?? button.textContent ?? "")));
      for (const button of await panel.getByRole("button").all()) {
        const box = await boxOf(button);
        const name = (await button.getAttribute("aria-label")) ?? (await button.textContent()) ?? "";
        const minimum = stepItems.has(name) ? 24 : 44;
        expect(Math.min(box.width, box.height), `tap target ${name} is at least ${minimum} px`).toBeGreaterThanOrEqual(minimum);
      }

      const first = await boxOf(panel.getByRole("radio", { name: "Region 1", exact: true }));
      const second = await boxOf(panel.getByRole("radio", { name: "Region 2", exact: true }));
      expectStacked(first, second, "first and second option");
    });

    // On a short screen the sheet covers them until it is folded.
    if (viewport.height <= 480)
      test("a folded panel leaves the conversation's Stop button uncovered", async ({ page }) => {
        await page.goto(host.url);
        await page.getByRole("textbox", { name: "Message" }).fill(`/ask ${JSON.stringify(shortQuestion)}`);
        await page.getByRole("button", { name: "Send" }).click();
        await expect(page.getByRole("region", { name: "Ship it?" })).toBeVisible();
        await page.keyboard.press("Alt+KeyQ");
        await expect(page.getByRole("radio", { name: "Yes" })).toBeFocused();
        await page.keyboard.press("Escape");
        const panel = page.locator("[data-question-panel]");
        await expect(panel).toHaveAttribute("data-collapsed", "true");
        const stop = page.getByRole("button", { name: "Stop" });
        await expect(stop).toBeInViewport({ ratio: 1 });
        expectApart(await boxOf(panel), await boxOf(stop), "folded panel and the conversation's Stop button");
      });
    else test("a short question leaves the conversation's last message and Stop button uncovered", async ({ page }) => {
      await page.goto(host.url);
      await page.getByRole("textbox", { name: "Message" }).fill(`/ask ${JSON.stringify(shortQuestion)}`);
      await page.getByRole("button", { name: "Send" }).click();
      const panel = page.getByRole("region", { name: "Ship it?" });
      await expect(panel).toBeVisible();
      // Measured as the user answers it: turned to, in the composer's place (a passive panel takes over by itself a moment later).
      await page.keyboard.press("Alt+KeyQ");
      await expect(page.getByRole("textbox", { name: "Message" })).toBeHidden();
      const stop = page.getByRole("button", { name: "Stop" });
      await expect(stop).toBeInViewport({ ratio: 1 });
      const panelBox = await boxOf(panel);
      expectApart(panelBox, await boxOf(stop), "panel and the conversation's Stop button");
      expectApart(panelBox, await boxOf(page.getByText("Ask question", { exact: true })), "panel and the tool row");
    });

    test("the body scrolls through 30 options while header, custom field and footer stay put", async ({ page }) => {
      const panel = await ask(page, manyOptions);
      const body = panel.locator(".question-panel__body");
      const sizes = await body.evaluate((element) => ({ scroll: element.scrollHeight, client: element.clientHeight }));
      expect(sizes.scroll).toBeGreaterThan(sizes.client);
      const footerBefore = await boxOf(panel.locator(".question-panel__footer"));
      const last = panel.getByRole("radio", { name: "Region 30" });
      await expect(last).not.toBeInViewport({ ratio: 1 });
      await body.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
      await expect(last).toBeInViewport({ ratio: 1 });
      expect(await body.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
      expect(await boxOf(panel.locator(".question-panel__footer"))).toEqual(footerBefore);
      await expect(panel.getByRole("textbox", { name: "Type your answer" })).toBeInViewport();
      await expect(panel.getByRole("button", { name: "Next", exact: true })).toBeInViewport();
      await last.click();
      await expect(page.getByRole("region", { name: "Anything else?" })).toBeVisible();
    });
  });
}

// The notice of answers not sent (the demo's frame of the story, the same component and styles as the app's) on short
// screens: a bottom sheet whose buttons stay on screen while its answers scroll under them.
for (const viewport of [
  { width: 740, height: 360 },
  { width: 1280, height: 400 },
]) {
  test(`at ${viewport.width}×${viewport.height} the notice of answers not sent keeps its buttons on screen and scrolls its answers above them`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto(`${host.url}/demo?frame#answered-elsewhere`);
    const notice = page.getByRole("region", { name: "Answered in another tab" });
    for (const name of ["Copy answers", "Dismiss"]) await expect(notice.getByRole("button", { name })).toBeInViewport({ ratio: 1 });
    const noticeBox = await boxOf(notice);
    expect(noticeBox.y + noticeBox.height).toBeLessThanOrEqual(viewport.height + 0.5);
    // The sheet's height, not the notice's own 60 % of the screen, bounds it.
    expect(await notice.evaluate((element) => getComputedStyle(element).maxHeight)).toBe(`${viewport.height - 8}px`);
    await notice.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    const last = notice.getByRole("definition").last();
    await expect(last).toHaveText("parley-web");
    await expect(last).toBeInViewport({ ratio: 1 });
    expectStacked(await boxOf(last), await boxOf(notice.getByRole("button", { name: "Dismiss" })), "the last answer and the buttons");
    for (const name of ["Copy answers", "Dismiss"]) await expect(notice.getByRole("button", { name })).toBeInViewport({ ratio: 1 });
  });
}

test.describe("at 360×640 with an on-screen keyboard", () => {
  test.use({ viewport: { width: 360, height: 640 } });

  test("a panel that arrives while the composer has focus waits in flow with its notice, and the composer and the panel's footer stay on screen", async ({ page }) => {
    // A question waits only while the composer holds text: type a draft, then the agent asks.
    const created = await page.request.post(`${host.url}/api/sessions`, { data: {} });
    const { session } = (await created.json()) as { session: { id: string } };
    await page.goto(`${host.url}/#session=${session.id}`);
    await page.getByRole("textbox", { name: "Message" }).click();
    await page.keyboard.type("half a thought");
    expect((await page.request.post(`${host.url}/api/sessions/${session.id}/messages`, { data: { text: `/ask ${JSON.stringify(manyOptions)}` } })).status()).toBe(202);
    const panel = page.getByRole("region", { name: manyOptions.questions[0]!.question });
    await expect(panel.getByText("Parley's assistant asks 2 questions. Press Alt+Q to answer.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
    const stop = await boxOf(page.getByRole("button", { name: "Stop" }));
    const panelBox = await boxOf(panel);
    expectStacked(stop, panelBox, "turn bar and panel");
    expect(panelBox.y + panelBox.height).toBeLessThanOrEqual(640.5);
    for (const control of [panel.getByRole("textbox", { name: "Type your answer" }), panel.getByRole("button", { name: "Next", exact: true }), panel.getByRole("button", { name: "Skip this question" })]) {
      const box = await boxOf(control);
      expect(box.y).toBeGreaterThanOrEqual(panelBox.y);
      expect(box.y + box.height).toBeLessThanOrEqual(panelBox.y + panelBox.height + 0.5);
    }
    const composer = page.getByRole("textbox", { name: "Message" });
    await expect(composer).toBeFocused();
    for (const control of [composer, page.getByRole("button", { name: "Send" }), page.getByText("You can send when Parley's assistant has finished, or press Stop.")]) {
      const box = await boxOf(control);
      expect(box.y).toBeGreaterThanOrEqual(panelBox.y + panelBox.height - 0.5);
      expect(box.y + box.height).toBeLessThanOrEqual(640.5);
    }
  });

  test("the bottom sheet stays above the keyboard with the custom field and the primary button visible", async ({ page }) => {
    await page.addInitScript(() => {
      const real = window.visualViewport!;
      const fake = new EventTarget();
      let keyboardHeight = 0;
      Object.defineProperties(fake, {
        width: { get: () => real.width },
        height: { get: () => real.height - keyboardHeight },
        offsetTop: { get: () => 0 },
        offsetLeft: { get: () => 0 },
        scale: { get: () => 1 },
      });
      Object.defineProperty(window, "visualViewport", { configurable: true, get: () => fake });
      Object.assign(window, {
        showKeyboard(height: number) {
          keyboardHeight = height;
          fake.dispatchEvent(new Event("resize"));
        },
      });
    });
    const panel = await ask(page, manyOptions);
    const keyboardTop = 640 - 300;
    await panel.getByRole("textbox", { name: "Type your answer" }).focus();
    await page.evaluate(() => (window as unknown as { showKeyboard(height: number): void }).showKeyboard(300));

    await expect
      .poll(async () => {
        const box = await boxOf(panel);
        return Math.round(box.y + box.height);
      })
      .toBe(keyboardTop);
    const panelBox = await boxOf(panel);
    expect(panelBox.y).toBeGreaterThanOrEqual(0);
    for (const control of [
      panel.getByRole("textbox", { name: "Type your answer" }),
      panel.getByRole("button", { name: "Next", exact: true }),
      panel.getByRole("button", { name: "Skip this question" }),
    ]) {
      const box = await boxOf(control);
      expect(box.y).toBeGreaterThanOrEqual(panelBox.y);
      expect(box.y + box.height).toBeLessThanOrEqual(keyboardTop + 0.5);
    }
    expectStacked(await boxOf(panel.locator(".question-panel__header")), await boxOf(panel.locator(".question-panel__body")), "header and body");
    expectStacked(await boxOf(panel.locator(".question-panel__body")), await boxOf(panel.locator(".question-panel__custom-row")), "body and custom row");
    expectStacked(await boxOf(panel.locator(".question-panel__custom-row")), await boxOf(panel.locator(".question-panel__footer")), "custom row and footer");
  });
});
