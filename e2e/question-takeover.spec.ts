import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page, type Request } from "@playwright/test";
import { startHost, type TestHost } from "./host";

let host: TestHost;

test.beforeAll(async () => {
  host = await startHost();
});

test.afterAll(async () => {
  await host.dispose();
});

const batch = {
  questions: [
    { id: "pick", question: "Alpha or Beta?", options: [{ label: "Alpha" }, { label: "Beta" }] },
    { id: "why", question: "Why?" },
  ],
};

async function openNewSession(page: Page): Promise<string> {
  const created = await page.request.post(`${host.url}/api/sessions`, { data: {} });
  expect(created.status()).toBe(201);
  const { session } = (await created.json()) as { session: { id: string } };
  await page.goto(`${host.url}/#session=${session.id}`);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  return session.id;
}

function recordPosts(page: Page, suffix: string): Request[] {
  const sent: Request[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().endsWith(suffix)) sent.push(request);
  });
  return sent;
}

/**
 * Types `draft` in the composer, has the batch asked while it is focused there, turns to the panel with Alt+Q and picks
 * the first question's first option, which opens the second; returns the composer.
 */
async function pickOverDraft(page: Page, sessionId: string, draft: string): Promise<Locator> {
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.click();
  await page.keyboard.type(draft);
  const asked = await page.request.post(`${host.url}/api/sessions/${sessionId}/messages`, { data: { text: `/ask ${JSON.stringify(batch)}` } });
  expect(asked.status()).toBe(202);
  await expect(page.getByRole("region", { name: "Alpha or Beta?" })).toBeVisible();
  await page.keyboard.press("Alt+KeyQ");
  await expect(page.getByRole("radio", { name: "Alpha" })).toBeFocused();
  await page.keyboard.press("1");
  await expect(page.getByRole("region", { name: "Why?" }).getByRole("textbox", { name: "Type your answer" })).toBeFocused();
  return composer;
}

/** As `pickOverDraft`, then answers the second question with `x` and Enter, which sends the answers. */
async function answerOverDraft(page: Page, sessionId: string, draft: string): Promise<Locator> {
  const composer = await pickOverDraft(page, sessionId, draft);
  await page.keyboard.type("x");
  await page.keyboard.press("Enter");
  return composer;
}

test("a question that answers the message just sent with Enter takes over: the composer hides and the keys go to the panel", async ({ page }) => {
  await openNewSession(page);
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.click();
  await page.keyboard.type(`/ask ${JSON.stringify(batch)}`);
  await page.keyboard.press("Enter");
  const panel = page.getByRole("region", { name: "Alpha or Beta?" });
  await expect(panel.getByRole("radio", { name: "Alpha" })).toBeFocused();
  await expect(composer).toBeHidden();
  await expect(page.getByText(/Press Alt\+Q to answer/)).toHaveCount(0);
  await page.keyboard.press("2");
  await expect(page.getByRole("region", { name: "Why?" }).getByRole("textbox", { name: "Type your answer" })).toBeFocused();
});

test("a question that arrives while the composer holds text waits, then takes over by itself once the composer is emptied", async ({ page }) => {
  const sessionId = await openNewSession(page);
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.click();
  await page.keyboard.type("half a thought");
  const asked = await page.request.post(`${host.url}/api/sessions/${sessionId}/messages`, { data: { text: `/ask ${JSON.stringify(batch)}` } });
  expect(asked.status()).toBe(202);
  const panel = page.getByRole("region", { name: "Alpha or Beta?" });
  await expect(panel.getByRole("status").first()).toHaveText("Parley's assistant asks 2 questions. Press Alt+Q to answer.");
  await expect(composer).toBeFocused();
  await page.keyboard.press("ControlOrMeta+KeyA");
  await page.keyboard.press("Backspace");
  await expect(panel.getByRole("radio", { name: "Alpha" })).toBeFocused();
  await expect(composer).toBeHidden();
});

test("a question that arrives while the composer holds a draft it no longer has focus waits with the composer in view, until Alt+Q", async ({ page }) => {
  await page.clock.install();
  const sessionId = await openNewSession(page);
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.click();
  await page.keyboard.type("half a thought");
  await composer.evaluate((field) => field.blur());
  // Long past the typing window: only the draft the composer holds keeps the question from taking over.
  await page.clock.runFor(2_000);
  const asked = await page.request.post(`${host.url}/api/sessions/${sessionId}/messages`, { data: { text: `/ask ${JSON.stringify(batch)}` } });
  expect(asked.status()).toBe(202);
  const panel = page.getByRole("region", { name: "Alpha or Beta?" });
  await expect(panel.getByRole("status").first()).toHaveText("Parley's assistant asks 2 questions. Press Alt+Q to answer.");
  await page.clock.runFor(3_000);
  await expect(composer).toBeVisible();
  await expect(composer).toHaveValue("half a thought");
  await expect(panel.getByRole("radio", { name: "Alpha" })).not.toBeFocused();
  await expect(panel.getByRole("status").first()).toHaveText("Parley's assistant asks 2 questions. Press Alt+Q to answer.");
  await page.keyboard.press("Alt+KeyQ");
  await expect(panel.getByRole("radio", { name: "Alpha" })).toBeFocused();
  await expect(composer).toBeHidden();
});

test("an Enter right after the answers go never sends the draft the composer gives back", async ({ page }) => {
  const sessionId = await openNewSession(page);
  const messages = recordPosts(page, `/api/sessions/${sessionId}/messages`);
  const composer = await answerOverDraft(page, sessionId, "draft text here");
  await expect(composer).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Your unsent draft is back." })).toBeVisible();
  await page.keyboard.press("End");
  await page.keyboard.type(" and more");
  await expect(composer).toHaveValue("draft text here and more");
  await expect(page.getByText("Your unsent draft is back.")).toHaveCount(0);
  expect(messages).toEqual([]);
});

test("the draft the composer gives back, sent with the Send button, leaves no line saying it is back", async ({ page }) => {
  const sessionId = await openNewSession(page);
  const messages = recordPosts(page, `/api/sessions/${sessionId}/messages`);
  // An echo, so the reply asks nothing and the composer stays in view.
  const composer = await answerOverDraft(page, sessionId, "/echo draft text here");
  await expect(page.getByRole("status").filter({ hasText: "Your unsent draft is back." })).toBeVisible();
  await page.getByRole("button", { name: "Send" }).click();
  await expect.poll(() => messages.map((request) => (request.postDataJSON() as { text: string }).text)).toEqual(["/echo draft text here"]);
  await expect(page.getByRole("region", { name: "Messages" }).getByText("draft text here", { exact: true })).toBeVisible();
  await expect(composer).toHaveValue("");
  await expect(page.getByText("Your unsent draft is back.")).toHaveCount(0);
});

test("a pick on a one-question single-select answers it without a Submit click", async ({ page }) => {
  const sessionId = await openNewSession(page);
  const responds = recordPosts(page, "/api/respond");
  const one = { questions: [{ id: "pick", question: "Tabs or spaces?", options: [{ label: "Tabs" }, { label: "Spaces" }] }] };
  await page.getByRole("textbox", { name: "Message" }).fill(`/ask ${JSON.stringify(one)}`);
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByRole("region", { name: "Tabs or spaces?" }).getByRole("radio", { name: "Spaces" }).click();
  await expect(page.getByRole("region", { name: "Tabs or spaces?" })).toHaveCount(0);
  expect(responds.map((request) => request.postDataJSON())).toEqual([
    { type: "answer", rpcId: expect.any(String), sessionId, answers: [{ id: "pick", selected: ["Spaces"] }] },
  ]);
});

test("the review step says it is the review, has its own stepper item, and any step can go to it", async ({ page }) => {
  await openNewSession(page);
  const headed = {
    questions: [
      { id: "pick", header: "Choice", question: "Alpha or Beta?", options: [{ label: "Alpha" }, { label: "Beta" }] },
      { id: "why", header: "Reason", question: "Why?" },
    ],
  };
  await page.getByRole("textbox", { name: "Message" }).fill(`/ask ${JSON.stringify(headed)}`);
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByRole("radio", { name: "Alpha" }).click();
  await page.getByRole("button", { name: "Skip this question" }).click();
  const review = page.getByRole("region", { name: "Review your answers" });
  await expect(review.getByRole("heading", { name: "Review your answers" })).toBeVisible();
  await expect(review.locator(".question-panel__eyebrow")).toHaveText("Review");
  const item = review.getByRole("list", { name: "Questions" }).getByRole("button", { name: "Review your answers" });
  await expect(item).toHaveAttribute("aria-current", "step");
  await review.getByRole("button", { name: /^Question 1 of 2/ }).click();
  await expect(page.getByRole("region", { name: "Alpha or Beta?" })).toBeVisible();
  await page.getByRole("button", { name: "Review your answers" }).click();
  await expect(page.getByRole("region", { name: "Review your answers" })).toBeVisible();
});

/** A new chat whose agent presents a 60-step plan, longer than its card: the card and its More below button. */
async function sendLongPlan(page: Page) {
  await openNewSession(page);
  const plan = Array.from({ length: 60 }, (_, index) => `${index + 1}. Step number ${index + 1}`).join("\n");
  await page.getByRole("textbox", { name: "Message" }).fill(`/plan ${plan}`);
  await page.getByRole("button", { name: "Send" }).click();
  const card = page.getByRole("region", { name: "Approve this plan?" });
  return { card, more: card.getByRole("button", { name: "More of the plan below: read it before you approve" }) };
}

test("a plan longer than the card says that more follows until it is read to its end", async ({ page }) => {
  const { card, more } = await sendLongPlan(page);
  await expect(more).toBeInViewport();
  await expect(card.getByRole("button", { name: "Approve", exact: true })).toBeVisible();
  await card.getByText("Step number 60", { exact: true }).scrollIntoViewIfNeeded();
  await expect(more).toHaveCount(0);
});

test("pressing More below with the keyboard until the plan's end leaves the focus on the plan, not on the page", async ({ page }) => {
  const { card, more } = await sendLongPlan(page);
  const body = card.getByRole("group", { name: "Approve this plan?" });
  await more.focus();
  for (let presses = 0; (await more.count()) > 0; presses++) {
    expect(presses).toBeLessThan(30);
    const before = await body.evaluate((element) => element.scrollTop);
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await more.count()) === 0 || (await body.evaluate((element) => element.scrollTop)) > before).toBe(true);
  }
  await expect(body).toBeFocused();
  await expect(card.getByRole("button", { name: "Approve", exact: true })).toBeVisible();
});

test("the review step with its stepper item, a long plan's More below and a restored draft's line have no axe violations at 360×740 in both themes", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const sessionId = await openNewSession(page);
  const expectAxeClean = async () => {
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations.map((violation) => ({ id: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }))).toEqual([]);
    }
  };
  const composer = await pickOverDraft(page, sessionId, "draft text here");
  await page.getByRole("button", { name: "Skip this question" }).click();
  await expect(page.getByRole("region", { name: "Review your answers" }).getByRole("button", { name: "Review your answers" })).toHaveAttribute("aria-current", "step");
  await expectAxeClean();
  await page.getByRole("region", { name: "Review your answers" }).getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("Your unsent draft is back. Enter sends it once you have pressed another key.")).toBeVisible();
  await expectAxeClean();

  await composer.fill("");
  const plan = Array.from({ length: 40 }, (_, index) => `${index + 1}. Step number ${index + 1}`).join("\n");
  await composer.fill(`/plan ${plan}`);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("button", { name: "More of the plan below: read it before you approve" })).toBeVisible();
  await expectAxeClean();
});
