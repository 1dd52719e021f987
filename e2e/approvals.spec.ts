import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { startHostWithTestMcp, type TestHost } from "./host";

let host: TestHost;

test.beforeAll(async () => {
  host = await startHostWithTestMcp("notes");
});

test.afterAll(async () => {
  await host.dispose();
});

const WRITE = { name: "plan", text: "ship it\non Monday" };
const WRITE_COMMAND = `/tool mcp__notes__write_note ${JSON.stringify(WRITE)}`;
const CARD = "Allow notes to run write_note?";

async function openChat(page: Page): Promise<string> {
  const created = await page.request.post(`${host.url}/api/sessions`, { data: {} });
  const { session } = (await created.json()) as { session: { id: string } };
  await page.goto(`${host.url}/#session=${session.id}`);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  return session.id;
}

async function sendMessage(page: Page, text: string) {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((violation) => ({ id: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }));
}

for (const theme of ["light", "dark"] as const) {
  test(`Allow once: the card shows server, tool and the whole arguments, has no axe violations at 360×740 (${theme}), and runs the tool once`, async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.emulateMedia({ colorScheme: theme });
    const sessionId = await openChat(page);
    const composer = page.getByRole("textbox", { name: "Message" });
    await expect(composer).toBeFocused();
    expect((await page.request.post(`${host.url}/api/sessions/${sessionId}/messages`, { data: { text: WRITE_COMMAND } })).status()).toBe(202);
    const card = page.getByRole("region", { name: CARD });
    await expect(card).toBeVisible();
    // An empty composer nobody types in is not typing: the card takes over as a question panel does, and the composer hides.
    await expect(card.getByRole("heading", { name: CARD })).toBeFocused();
    await expect(composer).toBeHidden();
    await expect(card.getByRole("region", { name: "Arguments" })).toHaveText(JSON.stringify(WRITE, null, 2), { useInnerText: true });
    for (const name of ["Deny", "Allow for this chat", "Allow once"]) await expect(card.getByRole("button", { name })).toBeInViewport();
    expect(await violations(page)).toEqual([]);

    await page.keyboard.press("Tab");
    await expect(card.getByRole("region", { name: "Arguments" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(card.getByRole("button", { name: "Deny" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(card.getByRole("button", { name: "Allow for this chat" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(card.getByRole("button", { name: "Allow once" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByText("Tool result: saved plan", { exact: true })).toBeVisible();
    await expect(card).toHaveCount(0);
    await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();

    await page.getByRole("button", { name: /notes · write_note\s*done/ }).click();
    await expect(page.getByText("Allowed once by you.")).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
}

for (const theme of ["light", "dark"] as const) {
  test(`Allow for this chat: the second call runs without asking, and the grant is listed in the header and revocable, with no axe violations at 360×740 (${theme})`, async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.emulateMedia({ colorScheme: theme });
    await openChat(page);
    await sendMessage(page, WRITE_COMMAND);
    await page.getByRole("region", { name: CARD }).getByRole("button", { name: "Allow for this chat" }).click();
    await expect(page.getByText("Tool result: saved plan", { exact: true })).toBeVisible();

    await sendMessage(page, `/tool mcp__notes__write_note ${JSON.stringify({ name: "second", text: "no question" })}`);
    await expect(page.getByText("Tool result: saved second", { exact: true })).toBeVisible();
    await expect(page.getByRole("region", { name: CARD })).toHaveCount(0);
    await page.getByRole("button", { name: /notes · write_note\s*done/ }).last().click();
    await expect(page.getByText("Allowed earlier for this chat: ran without asking.")).toBeVisible();

    await page.getByRole("button", { name: "Allowed tools" }).click();
    const grants = page.getByRole("region", { name: "Tools allowed for this chat" });
    await expect(grants.getByRole("listitem")).toHaveText(["notes · write_noteRevoke"]);
    await expect(grants.getByRole("button", { name: "Revoke write_note from notes" })).toBeInViewport();
    expect(await violations(page)).toEqual([]);
    await grants.getByRole("button", { name: "Revoke write_note from notes" }).click();
    await expect(grants.getByText("No tool is allowed for this chat: every acting call asks first.")).toBeVisible();

    await sendMessage(page, WRITE_COMMAND);
    await expect(page.getByRole("region", { name: CARD })).toBeVisible();
  });
}

// A phone held sideways and a laptop zoomed to 200 %: the card is a bottom sheet beside the chat list, all of it on screen.
for (const viewport of [
  { width: 740, height: 360 },
  { width: 1280, height: 400 },
]) {
  test(`at ${viewport.width}×${viewport.height} the card's arguments and every button are on screen, beside the chat list, and Deny with a reason still works`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await openChat(page);
    await sendMessage(page, WRITE_COMMAND);
    const card = page.getByRole("region", { name: CARD });
    await expect(card.getByRole("region", { name: "Arguments" })).toBeInViewport();
    for (const name of ["Deny", "Allow for this chat", "Allow once"]) await expect(card.getByRole("button", { name })).toBeInViewport({ ratio: 1 });
    // The sheet's height, not the card's own 70 % of the screen, bounds it.
    expect(await card.evaluate((element) => getComputedStyle(element).maxHeight)).toBe(`${viewport.height - 8}px`);
    const cardBox = (await card.boundingBox())!;
    const listBox = (await page.getByRole("navigation", { name: "Chats" }).boundingBox())!;
    expect(cardBox.x).toBeGreaterThanOrEqual(listBox.x + listBox.width - 0.5);
    expect(cardBox.x + cardBox.width).toBeLessThanOrEqual(viewport.width + 0.5);
    await card.getByRole("button", { name: "Deny" }).click();
    await card.getByRole("textbox", { name: "Reason for denying (optional)" }).fill("too short a screen");
    await expect(card.getByRole("button", { name: "Deny" })).toBeInViewport({ ratio: 1 });
    await card.getByRole("button", { name: "Deny" }).click();
    await expect(page.getByText("Error: TOOL_DENIED", { exact: true })).toBeVisible();
  });
}

test("Deny with a reason: the tool does not run, the model gets TOOL_DENIED with the reason, and the turn goes on", async ({ page }) => {
  await openChat(page);
  await sendMessage(page, `/tool mcp__notes__write_note ${JSON.stringify({ name: "friday", text: "deploy" })}`);
  const card = page.getByRole("region", { name: CARD });
  await expect(card.getByRole("textbox", { name: "Reason for denying (optional)" })).toHaveCount(0);
  await card.getByRole("button", { name: "Deny" }).click();
  await card.getByRole("textbox", { name: "Reason for denying (optional)" }).fill("not on a Friday");
  await card.getByRole("button", { name: "Deny" }).click();
  await expect(page.getByText("Error: TOOL_DENIED", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: /notes · write_note\s*denied/ }).click();
  await expect(page.getByText("Denied by you: not on a Friday")).toBeVisible();
  await expect(page.getByText("TOOL_DENIED: the human denied this call: not on a Friday")).toBeVisible();

  await sendMessage(page, '/tool mcp__notes__read_note {"name":"friday"}');
  await expect(page.getByText("Tool result: no note named friday", { exact: true })).toBeVisible();
});

test("two tabs: both show the card, the first answer wins, and the other tab's late answer reads not-pending", async ({ context }) => {
  const first = await context.newPage();
  const second = await context.newPage();
  let holdResolved = true;
  const held: string[] = [];
  let deliverToSecond: (message: string) => void = () => undefined;
  await second.routeWebSocket("**/api/mux", (socket) => {
    const server = socket.connectToServer();
    deliverToSecond = (message) => socket.send(message);
    server.onMessage((message) => {
      const text = typeof message === "string" ? message : message.toString("utf8");
      if (holdResolved && text.includes('"question/resolved"')) held.push(text);
      else socket.send(text);
    });
  });
  const sessionId = await openChat(first);
  await second.goto(`${host.url}/#session=${sessionId}`);
  await expect(second.getByRole("textbox", { name: "Message" })).toBeVisible();

  await sendMessage(first, WRITE_COMMAND);
  await expect(first.getByRole("region", { name: CARD })).toBeVisible();
  const late = second.getByRole("region", { name: CARD });
  await expect(late).toBeVisible();

  await first.getByRole("region", { name: CARD }).getByRole("button", { name: "Allow once" }).click();
  await expect(first.getByText("Tool result: saved plan", { exact: true })).toBeVisible();
  await expect(first.getByRole("region", { name: CARD })).toHaveCount(0);

  await late.getByRole("button", { name: "Deny" }).click();
  await late.getByRole("textbox", { name: "Reason for denying (optional)" }).fill("too late");
  await late.getByRole("button", { name: "Deny" }).click();
  await expect(late.getByText("This request was already answered, dismissed or stopped.")).toBeVisible();
  await expect(second.getByText("Tool result: saved plan", { exact: true })).toBeVisible();

  holdResolved = false;
  for (const message of held.splice(0)) deliverToSecond(message);
  await expect(late).toHaveCount(0);
  await expect(second.getByRole("textbox", { name: "Message" })).toBeVisible();
});

test("reload with an approval pending: the card comes back with the same arguments and still answers", async ({ page }) => {
  await openChat(page);
  await sendMessage(page, WRITE_COMMAND);
  await expect(page.getByRole("region", { name: CARD })).toBeVisible();
  await page.reload();
  const card = page.getByRole("region", { name: CARD });
  await expect(card).toBeVisible();
  await expect(card.getByRole("region", { name: "Arguments" })).toHaveText(JSON.stringify(WRITE, null, 2), { useInnerText: true });
  await card.getByRole("button", { name: "Allow once" }).click();
  await expect(page.getByText("Tool result: saved plan", { exact: true })).toBeVisible();
});
