import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { startHost, type TestHost } from "./host";

let host: TestHost;

test.beforeAll(async () => {
  host = await startHost();
});

test.afterAll(async () => {
  await host.dispose();
});

async function openNewSession(page: Page): Promise<string> {
  const created = await page.request.post(`${host.url}/api/sessions`, { data: {} });
  expect(created.status()).toBe(201);
  const { session } = (await created.json()) as { session: { id: string } };
  await page.goto(`${host.url}/#session=${session.id}`);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  return session.id;
}

async function postMessage(request: APIRequestContext, sessionId: string, text: string) {
  const response = await request.post(`${host.url}/api/sessions/${sessionId}/messages`, { data: { text } });
  expect(response.status()).toBe(202);
}

async function sendFromComposer(page: Page, text: string) {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

const threeQuestions = {
  questions: [
    {
      id: "pkg",
      header: "Tooling",
      question: "Which package manager should we use?",
      options: [{ label: "pnpm (Recommended)", description: "Fast and disk-efficient." }, { label: "npm" }, { label: "yarn" }],
    },
    { id: "name", question: "What should the project be called?" },
    { id: "extras", question: "Which extras do you want?", multi_select: true, options: [{ label: "ESLint" }, { label: "Prettier" }, { label: "Vitest" }] },
  ],
};

test("a three-question batch answered by mouse and keyboard comes back as the exact answer JSON, and the composer returns with its draft", async ({ page }) => {
  const sessionId = await openNewSession(page);
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.fill("an unsent draft");
  await postMessage(page.request, sessionId, `/ask ${JSON.stringify(threeQuestions)}`);

  const first = page.getByRole("region", { name: "Which package manager should we use?" });
  await expect(first).toBeVisible();
  await expect(composer).toBeVisible();
  await first.getByRole("heading", { name: "Which package manager should we use?" }).click();
  await expect(composer).toBeHidden();
  await expect(first.getByText("Recommended", { exact: true })).toBeVisible();
  await expect(first.getByRole("radio", { name: "pnpm" })).not.toBeChecked();
  await first.getByRole("radio", { name: "pnpm" }).click();

  const second = page.getByRole("region", { name: "What should the project be called?" });
  await expect(second).toBeVisible();
  await expect(second.getByRole("textbox", { name: "Type your answer" })).toBeFocused();
  await page.keyboard.type("parley-demo");
  await page.keyboard.press("Enter");

  const third = page.getByRole("region", { name: "Which extras do you want?" });
  await expect(third).toBeVisible();
  await third.getByRole("checkbox", { name: "ESLint" }).focus();
  await page.keyboard.press("Space");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(third.getByRole("checkbox", { name: "Vitest" })).toBeFocused();
  await page.keyboard.press("Space");
  await expect(third.getByRole("checkbox", { name: "ESLint" })).toBeChecked();
  await expect(third.getByRole("checkbox", { name: "Prettier" })).not.toBeChecked();
  await expect(third.getByRole("checkbox", { name: "Vitest" })).toBeChecked();
  await page.keyboard.press("Enter");

  const expected = {
    answers: [
      { id: "pkg", selected: ["pnpm (Recommended)"] },
      { id: "name", selected: [], custom: "parley-demo" },
      { id: "extras", selected: ["ESLint", "Vitest"] },
    ],
  };
  await expect(page.getByText(`Answers: ${JSON.stringify(expected)}`, { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: /\?$/ })).toHaveCount(0);
  await expect(composer).toBeVisible();
  await expect(composer).toHaveValue("an unsent draft");
  await expect(page.getByRole("button", { name: /Ask question\s*3\/3 answered/ })).toBeVisible();
});

test("skipping a question sends it as an empty selection and the row counts only the answered one", async ({ page }) => {
  await openNewSession(page);
  const batch = {
    questions: [
      { id: "color", question: "Favourite colour?", options: [{ label: "Red" }, { label: "Blue" }] },
      { id: "size", question: "Which size?", options: [{ label: "Small" }, { label: "Large" }] },
    ],
  };
  await sendFromComposer(page, `/ask ${JSON.stringify(batch)}`);
  const first = page.getByRole("region", { name: "Favourite colour?" });
  await expect(first).toBeVisible();
  await first.getByRole("button", { name: "Skip this question" }).click();
  const second = page.getByRole("region", { name: "Which size?" });
  await second.getByRole("radio", { name: "Large" }).click();
  await second.getByRole("button", { name: "Review", exact: true }).click();
  const review = page.getByRole("region", { name: "Review your answers" });
  await expect(review.getByRole("listitem").filter({ hasText: "Change" })).toHaveText(["1. Favourite colour?SkippedChange", "2. Which size?LargeChange"]);
  await review.getByRole("button", { name: "Submit" }).click();

  const expected = { answers: [{ id: "color", selected: [] }, { id: "size", selected: ["Large"] }] };
  await expect(page.getByText(`Answers: ${JSON.stringify(expected)}`, { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /Ask question\s*1\/2 answered/ })).toBeVisible();
});

test("dismissing all questions after confirming the discard ends the tool call with ASK_CANCELLED", async ({ page }) => {
  await openNewSession(page);
  const batch = { questions: [{ id: "tags", question: "Which tags apply?", multi_select: true, options: [{ label: "bug" }, { label: "docs" }] }] };
  await sendFromComposer(page, `/ask ${JSON.stringify(batch)}`);
  const panel = page.getByRole("region", { name: "Which tags apply?" });
  await panel.getByRole("checkbox", { name: "docs" }).click();
  await panel.getByRole("button", { name: "Dismiss all questions" }).click();
  await expect(panel.getByText("Discard your answers?")).toBeVisible();
  await panel.getByRole("button", { name: "Discard" }).click();

  await expect(page.getByText("Error: ASK_CANCELLED", { exact: true })).toBeVisible();
  await expect(panel).toBeHidden();
  await expect(page.getByRole("button", { name: /Ask question\s*cancelled/ })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
});

test("Stop while a question is pending interrupts the turn, removes the panel and the row reads interrupted", async ({ page }) => {
  await openNewSession(page);
  const batch = { questions: [{ id: "go", question: "Deploy now?", options: [{ label: "Yes" }, { label: "No" }] }] };
  await sendFromComposer(page, `/ask ${JSON.stringify(batch)}`);
  const panel = page.getByRole("region", { name: "Deploy now?" });
  await expect(panel).toBeVisible();
  await expect(page.getByText("Ask question").locator("..")).toContainText("waiting");
  await page.getByRole("button", { name: "Stop" }).click();

  await expect(panel).toBeHidden();
  await expect(page.getByRole("button", { name: /Ask question\s*interrupted/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Stop" })).toBeHidden();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();
});

test("Stop pressed from the keyboard leaves focus in the message box, with a question pending or while a reply streams", async ({ page }) => {
  await openNewSession(page);
  const composer = page.getByRole("textbox", { name: "Message" });
  const batch = { questions: [{ id: "go", question: "Deploy now?", options: [{ label: "Yes" }, { label: "No" }] }] };
  await sendFromComposer(page, `/ask ${JSON.stringify(batch)}`);
  const panel = page.getByRole("region", { name: "Deploy now?" });
  await expect(panel).toBeVisible();
  await page.getByRole("button", { name: "Stop" }).focus();
  await page.keyboard.press("Enter");
  await expect(panel).toBeHidden();
  await expect(page.getByRole("button", { name: "Stop" })).toBeHidden();
  await expect(composer).toBeFocused();

  await composer.fill("/stream 10000 a b");
  await composer.press("Enter");
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await page.getByRole("button", { name: "Stop" }).focus();
  await page.keyboard.press(" ");
  await expect(page.getByRole("button", { name: "Stop" })).toBeHidden();
  await expect(composer).toBeFocused();

  // Retry from the keyboard sends the message again and leaves focus in the box too, not on Stop for a second key.
  await page.getByRole("button", { name: "Retry", exact: true }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await expect(composer).toBeFocused();
  // A pointer's Stop hands nothing off: on a phone, focus in the box would open the keyboard.
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(page.getByRole("button", { name: "Retry", exact: true })).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.activeElement === document.body)).toBe(true);
});

test("the Enter after a keyboard Stop, a second one or a held one, does not send the draft the message box holds", async ({ page }) => {
  const sessionId = await openNewSession(page);
  const composer = page.getByRole("textbox", { name: "Message" });
  const posted: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === `/api/sessions/${sessionId}/messages`) posted.push(request.postData() ?? "");
  });
  await sendFromComposer(page, "/stream 10000 a b");
  const stop = page.getByRole("button", { name: "Stop" });
  await expect(stop).toBeVisible();
  await composer.fill("half a thought");
  await stop.focus();
  await page.keyboard.press("Enter");
  await expect(stop).toBeHidden();
  await expect(composer).toBeFocused();
  await page.keyboard.press("Enter");
  await page.keyboard.down("Enter");
  await page.keyboard.down("Enter");
  await page.keyboard.up("Enter");
  await expect(composer).toHaveValue("half a thought");
  expect(posted).toHaveLength(1);
  // Another key first, then Enter (past the guard's half second) sends it.
  await page.keyboard.type("!");
  await expect(async () => {
    await page.keyboard.press("Enter");
    expect(posted).toHaveLength(2);
  }).toPass();
  expect(JSON.parse(posted[1]!)).toEqual({ text: "half a thought!" });
});

test("stepping between single-select questions shows each one's own radios, and Tab reaches the checked one", async ({ page }) => {
  await openNewSession(page);
  const batch = {
    questions: [
      { id: "colour", question: "Which colour?", options: [{ label: "Red" }, { label: "Green" }, { label: "Blue" }] },
      { id: "size", question: "Which size?", options: [{ label: "Small" }, { label: "Medium" }, { label: "Large" }] },
    ],
  };
  await sendFromComposer(page, `/ask ${JSON.stringify(batch)}`);
  const colour = page.getByRole("region", { name: "Which colour?" });
  await colour.getByRole("radio", { name: "Blue" }).click();

  const size = page.getByRole("region", { name: "Which size?" });
  await expect(size).toBeVisible();
  const sizes = size.getByRole("radio");
  await expect(sizes).toHaveText(["Small1", "Medium2", "Large3"]);
  for (const name of ["Small", "Medium", "Large"]) await expect(size.getByRole("radio", { name })).not.toBeChecked();
  await expect(size.getByRole("radio", { name: "Small" })).toBeFocused();

  await size.getByRole("button", { name: "Previous question" }).click();
  await expect(colour).toBeVisible();
  await expect(colour.getByRole("radio", { name: "Blue" })).toBeChecked();
  await expect(colour.getByRole("radio")).toHaveText(["Red1", "Green2", "Blue3"]);
  await colour.getByRole("textbox", { name: "Type your answer" }).focus();
  await page.keyboard.press("Shift+Tab");
  await expect(colour.getByRole("radio", { name: "Blue" })).toBeFocused();
});
