import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test, type Page, type Request } from "@playwright/test";
import { pauseClock } from "./clock";
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
    { id: "confirm", question: "Yes or No?", options: [{ label: "Yes" }, { label: "No" }] },
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

function recordResponds(page: Page): Request[] {
  const sent: Request[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/respond")) sent.push(request);
  });
  return sent;
}

test("a batch that arrives while the user types in the composer steals no keystroke and answers nothing", async ({ page }) => {
  // The page's clock runs as usual until it is stopped for the keys that must land inside the step guard's 300 ms.
  await page.clock.install();
  const sent = recordResponds(page);
  const sessionId = await openNewSession(page);
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.click();
  await page.keyboard.type("I have 3 ", { delay: 30 });
  const asked = await page.request.post(`${host.url}/api/sessions/${sessionId}/messages`, { data: { text: `/ask ${JSON.stringify(batch)}` } });
  expect(asked.status()).toBe(202);
  const panel = page.getByRole("region", { name: "Alpha or Beta?" });
  await expect(panel).toBeVisible();
  await expect(panel.getByRole("status").first()).toHaveText("Parley's assistant asks 2 questions. Press Alt+Q to answer.");

  await page.keyboard.type("cats and 2 dogs", { delay: 30 });
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");

  await expect(composer).toBeVisible();
  await expect(composer).toBeFocused();
  await expect(composer).toHaveValue("I have 3 cats and 2 dogs");
  await expect(panel.getByRole("radio", { name: "Alpha" })).not.toBeChecked();
  await expect(panel.getByRole("radio", { name: "Beta" })).not.toBeChecked();
  await expect(panel.getByRole("heading", { name: "Alpha or Beta?" })).toBeVisible();
  expect(sent).toEqual([]);

  await page.keyboard.press("Alt+KeyQ");
  await expect(panel.getByRole("radio", { name: "Alpha" })).toBeFocused();
  await expect(composer).toBeHidden();
  await expect(page.getByRole("textbox", { name: "Message", includeHidden: true })).toHaveValue("I have 3 cats and 2 dogs");
  expect(sent).toEqual([]);

  // With the clock stopped, the two Enters come within the 300 ms after the pick however slow the machine is.
  await pauseClock(page);
  await page.keyboard.press("2");
  await expect(page.getByRole("region", { name: "Yes or No?" })).toBeVisible();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("radio", { name: "Yes" })).not.toBeChecked();
  await page.clock.runFor(350);
  await page.clock.resume();
  await page.keyboard.press("Digit1");
  await page.keyboard.press("Enter");
  await expect(composer).toBeVisible();
  await expect(composer).toHaveValue("I have 3 cats and 2 dogs");
  expect(sent.map((request) => request.postDataJSON())).toEqual([
    { type: "answer", rpcId: expect.any(String), sessionId, answers: [{ id: "pick", selected: ["Beta"] }, { id: "confirm", selected: ["Yes"] }] },
  ]);
});

test("a double tap answers one question: the new step ignores taps for its first 300 ms", async ({ page }) => {
  await page.clock.install();
  const sent = recordResponds(page);
  const sessionId = await openNewSession(page);
  await page.getByRole("textbox", { name: "Message" }).fill(`/ask ${JSON.stringify(batch)}`);
  await page.getByRole("button", { name: "Send" }).click();
  const first = page.getByRole("radio", { name: "Alpha" });
  await expect(first).toBeVisible();
  await page.keyboard.press("Alt+KeyQ");
  await expect(first).toBeFocused();
  const box = await first.boundingBox();
  // Stopped, so the second tap is within 300 ms of the first however slow the machine is.
  await pauseClock(page);
  await page.mouse.dblclick(box!.x + 40, box!.y + box!.height / 2);
  await expect(page.getByRole("region", { name: "Yes or No?" })).toBeVisible();
  // Both taps were dispatched when dblclick returned, and a pick renders within its own event.
  await expect(page.getByRole("radio", { name: "Yes" })).not.toBeChecked();
  await expect(page.getByRole("radio", { name: "No" })).not.toBeChecked();
  expect(sent).toEqual([]);
  void sessionId;
});

test("a double Enter answers one request: the request after the one answered here ignores keys for its first 300 ms, though the send took the focused control away", async ({ page }) => {
  await page.clock.install();
  const sent = recordResponds(page);
  // An outside agent asks two questions at once in its chat: the panel shows one, then the other.
  const client = new Client({ name: "double-enter", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", host.url)));
  try {
    const ask = (question: string) => client.callTool({ name: "ask_user_question", arguments: { questions: [{ id: "pick", question, options: [{ label: "Alpha" }, { label: "Beta" }] }] } });
    const calls = [ask("First of two?"), ask("Second of two?")];
    let sessionId: string | undefined;
    await expect.poll(async () => (sessionId = ((await (await page.request.get(`${host.url}/api/sessions`)).json()) as { sessions: { id: string; title: string }[] }).sessions.find((session) => session.title.startsWith("double-enter"))?.id)).toBeTruthy();
    await page.goto(`${host.url}/#session=${sessionId}`);
    await expect(page.getByRole("region", { name: "First of two?" })).toBeVisible();
    await page.keyboard.press("Alt+KeyQ");
    await expect(page.getByRole("radio", { name: "Alpha" })).toBeFocused();
    // Stopped, so the second Enter is within 300 ms of the next panel's arrival however slow the machine is.
    await pauseClock(page);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("region", { name: "Second of two?" })).toBeVisible();
    await page.keyboard.press("Enter");
    await page.clock.runFor(400);
    await page.keyboard.press("2");
    await expect(page.getByRole("region", { name: "Second of two?" })).toHaveCount(0);
    const results = await Promise.all(calls);
    expect(results.map((result) => (result.content as { text: string }[])[0]!.text)).toEqual([JSON.stringify({ answers: [{ id: "pick", selected: ["Alpha"] }] }), JSON.stringify({ answers: [{ id: "pick", selected: ["Beta"] }] })]);
    expect(sent.map((request) => (request.postDataJSON() as { answers: unknown }).answers)).toEqual([[{ id: "pick", selected: ["Alpha"] }], [{ id: "pick", selected: ["Beta"] }]]);
  } finally {
    await client.close();
  }
});

test("each step opens at its top with the question's heading in view", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  await openNewSession(page);
  const long = {
    questions: [
      { id: "many", question: "Which of these apply?", multi_select: true, options: Array.from({ length: 30 }, (_, index) => ({ label: `Option ${index + 1}`, description: "A longer description that wraps onto a second line on a phone." })) },
      { id: "next", question: "And the next question?", options: [{ label: "One" }, { label: "Two" }] },
    ],
  };
  await page.getByRole("textbox", { name: "Message" }).fill(`/ask ${JSON.stringify(long)}`);
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByRole("checkbox", { name: "Option 30" }).click();
  await expect(page.getByRole("checkbox", { name: "Option 30" })).toBeChecked();
  await page.getByRole("button", { name: "Next", exact: true }).click();
  const heading = page.getByRole("heading", { level: 2, name: "And the next question?" });
  await expect(heading).toBeInViewport({ ratio: 1 });
  expect(await page.locator(".question-panel__body").evaluate((body) => body.scrollTop)).toBe(0);
});

test("a sentence typed as a question takes the focus from the empty composer picks nothing: its Space and Enter wait for the typing to pause", async ({ page }) => {
  const sent = recordResponds(page);
  await openNewSession(page);
  const composer = page.getByRole("textbox", { name: "Message" });
  const one = { questions: [{ id: "go", question: "Deploy now?", options: [{ label: "Yes" }, { label: "No" }] }] };
  await composer.fill(`/ask ${JSON.stringify(one)}`);
  await composer.press("Enter");
  const yes = page.getByRole("radio", { name: "Yes" });
  await expect(yes).toBeFocused();
  // The user, not looking, starts the next message where the box was.
  await page.keyboard.type("ok then", { delay: 20 });
  await page.keyboard.press("Enter");
  await expect(yes).toBeFocused();
  await expect(page.getByRole("radio", { checked: true })).toHaveCount(0);
  expect(sent).toEqual([]);
  // Once the typing has paused, the keys answer as usual.
  await expect(async () => {
    await page.keyboard.press("2");
    expect(sent).toHaveLength(1);
  }).toPass();
  expect(sent[0]!.postDataJSON()).toMatchObject({ type: "answer", answers: [{ id: "go", selected: ["No"] }] });
});
