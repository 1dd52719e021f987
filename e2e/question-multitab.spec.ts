import { expect, test, type Page } from "@playwright/test";
import { startHost, type TestHost } from "./host";

let host: TestHost;

test.beforeAll(async () => {
  host = await startHost();
});

test.afterAll(async () => {
  await host.dispose();
});

function batch(suffix: string) {
  return {
    questions: [
      { id: "color", question: `Favourite colour ${suffix}?`, options: [{ label: "Red" }, { label: "Blue" }] },
      { id: "size", question: `Which size ${suffix}?`, options: [{ label: "Small" }, { label: "Large" }] },
    ],
  };
}

async function postAsk(page: Page, sessionId: string, suffix: string) {
  const response = await page.request.post(`${host.url}/api/sessions/${sessionId}/messages`, { data: { text: `/ask ${JSON.stringify(batch(suffix))}` } });
  expect(response.status()).toBe(202);
}

test("two tabs on one session: an answer in one removes the other's panel, and a raced submit reads not-pending and loses nothing", async ({ context }) => {
  const first = await context.newPage();
  const second = await context.newPage();
  let holdResolved = false;
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

  const created = await first.request.post(`${host.url}/api/sessions`, { data: {} });
  const { session } = (await created.json()) as { session: { id: string } };
  await first.goto(`${host.url}/#session=${session.id}`);
  await second.goto(`${host.url}/#session=${session.id}`);
  await expect(first.getByRole("textbox", { name: "Message" })).toBeVisible();
  await expect(second.getByRole("textbox", { name: "Message" })).toBeVisible();

  await postAsk(first, session.id, "one");
  await expect(second.getByRole("region", { name: "Favourite colour one?" })).toBeVisible();
  const firstPanel = first.getByRole("region", { name: "Favourite colour one?" });
  await firstPanel.getByRole("radio", { name: "Blue" }).click();
  const firstStep2 = first.getByRole("region", { name: "Which size one?" });
  await firstStep2.getByRole("radio", { name: "Small" }).click();
  await firstStep2.getByRole("button", { name: "Submit" }).click();

  const answeredOne = `Answers: ${JSON.stringify({ answers: [{ id: "color", selected: ["Blue"] }, { id: "size", selected: ["Small"] }] })}`;
  for (const page of [first, second]) {
    await expect(page.getByText(answeredOne, { exact: true })).toBeVisible();
    await expect(page.getByRole("region", { name: /one\?$/ })).toHaveCount(0);
    await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  }

  holdResolved = true;
  await postAsk(first, session.id, "two");
  const secondPanel = second.getByRole("region", { name: "Favourite colour two?" });
  await expect(secondPanel).toBeVisible();
  await secondPanel.getByRole("radio", { name: "Red" }).click();
  const secondStep2 = second.getByRole("region", { name: "Which size two?" });
  await secondStep2.getByRole("radio", { name: "Large" }).click();

  await first.getByRole("region", { name: "Favourite colour two?" }).getByRole("radio", { name: "Blue" }).click();
  const firstTwoStep2 = first.getByRole("region", { name: "Which size two?" });
  await firstTwoStep2.getByRole("radio", { name: "Small" }).click();
  await firstTwoStep2.getByRole("button", { name: "Submit" }).click();
  const answeredTwo = `Answers: ${JSON.stringify({ answers: [{ id: "color", selected: ["Blue"] }, { id: "size", selected: ["Small"] }] })}`;
  await expect(first.getByText(answeredTwo, { exact: true }).nth(1)).toBeVisible();
  await expect.poll(() => held.length).toBe(1);

  await secondStep2.getByRole("button", { name: "Submit" }).click();
  await expect(secondStep2.getByRole("status")).toHaveText(/question response rejected: not-pending/);
  await expect(secondStep2.getByRole("radio", { name: "Large" })).toBeChecked();
  await expect(secondStep2.getByRole("button", { name: "Submit" })).toBeEnabled();
  await secondStep2.getByRole("button", { name: "Previous question" }).click();
  await expect(second.getByRole("region", { name: "Favourite colour two?" }).getByRole("radio", { name: "Red" })).toBeChecked();

  holdResolved = false;
  held.splice(0).forEach((message) => deliverToSecond(message));
  await expect(second.getByRole("region", { name: /two\?$/ })).toHaveCount(0);
  await expect(second.getByText(answeredTwo, { exact: true }).nth(1)).toBeVisible();
  const notice = second.getByRole("region", { name: "Answered in another tab" });
  await expect(notice.getByRole("term")).toHaveText(["Favourite colour two?", "Which size two?"]);
  await expect(notice.getByRole("definition")).toHaveText(["Red", "Large"]);
  await expect(second.getByRole("textbox", { name: "Message" })).toBeHidden();
  // A reload keeps the notice and the answers it holds, until it is dismissed.
  await second.reload();
  await expect(notice.getByRole("term")).toHaveText(["Favourite colour two?", "Which size two?"]);
  await expect(notice.getByRole("definition")).toHaveText(["Red", "Large"]);
  await expect(second.getByRole("textbox", { name: "Message" })).toBeHidden();
  await notice.getByRole("button", { name: "Dismiss" }).click();
  await expect(notice).toBeHidden();
  await expect(second.getByRole("textbox", { name: "Message" })).toBeVisible();
  await second.reload();
  await expect(second.getByText(answeredTwo, { exact: true }).nth(1)).toBeVisible();
  await expect(second.getByRole("textbox", { name: "Message" })).toBeVisible();
  await expect(notice).toHaveCount(0);
  await expect(first.getByRole("region", { name: "Answered in another tab" })).toHaveCount(0);
});

test("a submit still in flight when another tab's answer wins keeps this tab's answers in a notice, and nothing is lost", async ({ context }) => {
  const first = await context.newPage();
  const second = await context.newPage();
  // The second tab's answer leaves the browser only once the first tab's answer was taken.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let heldRespond = false;
  await second.route("**/api/respond", async (route) => {
    heldRespond = true;
    await released;
    await route.continue();
  });
  const created = await first.request.post(`${host.url}/api/sessions`, { data: {} });
  const { session } = (await created.json()) as { session: { id: string } };
  await first.goto(`${host.url}/#session=${session.id}`);
  await second.goto(`${host.url}/#session=${session.id}`);
  await expect(second.getByRole("textbox", { name: "Message" })).toBeVisible();
  await postAsk(first, session.id, "three");

  const secondPanel = second.getByRole("region", { name: "Favourite colour three?" });
  await secondPanel.getByRole("radio", { name: "Red" }).click();
  const secondStep2 = second.getByRole("region", { name: "Which size three?" });
  await secondStep2.getByRole("radio", { name: "Large" }).click();
  await secondStep2.getByRole("button", { name: "Submit" }).click();
  await expect.poll(() => heldRespond).toBe(true);

  await first.getByRole("region", { name: "Favourite colour three?" }).getByRole("radio", { name: "Blue" }).click();
  const firstStep2 = first.getByRole("region", { name: "Which size three?" });
  await firstStep2.getByRole("radio", { name: "Small" }).click();
  await firstStep2.getByRole("button", { name: "Submit" }).click();
  const answered = `Answers: ${JSON.stringify({ answers: [{ id: "color", selected: ["Blue"] }, { id: "size", selected: ["Small"] }] })}`;
  // The second tab got the question's resolved frame while its own answer was still on its way.
  await expect(second.getByText(answered, { exact: true })).toBeVisible();
  await expect(second.getByRole("region", { name: /three\?$/ })).toHaveCount(0);

  const responded = second.waitForResponse("**/api/respond");
  release();
  expect(await (await responded).json()).toEqual({ accepted: false, reason: "not-pending", detail: expect.stringContaining("is not pending") });
  const notice = second.getByRole("region", { name: "Answered in another tab" });
  await expect(notice.getByRole("term")).toHaveText(["Favourite colour three?", "Which size three?"]);
  await expect(notice.getByRole("definition")).toHaveText(["Red", "Large"]);
  await expect(first.getByRole("region", { name: "Answered in another tab" })).toHaveCount(0);
});
