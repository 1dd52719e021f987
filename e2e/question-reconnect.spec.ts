import { expect, test, type Page, type WebSocketRoute } from "@playwright/test";
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
    { id: "color", question: "Favourite colour?", options: [{ label: "Red" }, { label: "Blue" }] },
    { id: "note", question: "Any note for the painter?" },
  ],
};

async function askInNewSession(page: Page): Promise<string> {
  await page.goto(host.url);
  await page.getByRole("textbox", { name: "Message" }).fill(`/ask ${JSON.stringify(batch)}`);
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByRole("region", { name: "Favourite colour?" }).getByRole("radio", { name: "Blue" }).click();
  const second = page.getByRole("region", { name: "Any note for the painter?" });
  await second.getByRole("textbox", { name: "Type your answer" }).fill("matte finish");
  const match = /#session=(.+)$/.exec(page.url());
  expect(match).not.toBeNull();
  return decodeURIComponent(match![1]!);
}

test("the panel survives a dropped socket with its drafts, and the answer goes through after the reconnect", async ({ page }) => {
  const routes: WebSocketRoute[] = [];
  await page.routeWebSocket("**/api/mux", (socket) => {
    routes.push(socket);
    const server = socket.connectToServer();
    server.onMessage((message) => socket.send(message));
    socket.onClose(() => server.close());
  });
  await askInNewSession(page);
  expect(routes).toHaveLength(1);

  await routes[0]!.close({ code: 1006, reason: "network dropped" });
  await expect.poll(() => routes.length).toBe(2);
  await expect(page.getByRole("status").filter({ hasText: /Connecting|Offline/ })).toHaveCount(0);

  const second = page.getByRole("region", { name: "Any note for the painter?" });
  await expect(second).toBeVisible();
  await expect(second.getByRole("textbox", { name: "Type your answer" })).toHaveValue("matte finish");
  await second.getByRole("button", { name: "Submit" }).click();
  const expected = { answers: [{ id: "color", selected: ["Blue"] }, { id: "note", selected: [], custom: "matte finish" }] };
  await expect(page.getByText(`Answers: ${JSON.stringify(expected)}`, { exact: true })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
});

test("a question answered elsewhere while the socket was down is dropped on reconnect, and the transcript catches up", async ({ page }) => {
  let refuse = false;
  const routes: WebSocketRoute[] = [];
  let rpcId: string | null = null;
  await page.routeWebSocket("**/api/mux", (socket) => {
    routes.push(socket);
    if (refuse) {
      socket.close({ code: 1006, reason: "still offline" });
      return;
    }
    const server = socket.connectToServer();
    server.onMessage((message) => {
      const frame = JSON.parse(String(message)) as { type: string; rpcId?: string };
      if (frame.type === "question/requested") rpcId = frame.rpcId ?? null;
      socket.send(message);
    });
    socket.onClose(() => server.close());
  });
  const sessionId = await askInNewSession(page);
  expect(rpcId).not.toBeNull();

  refuse = true;
  await routes[0]!.close({ code: 1006, reason: "network dropped" });
  await expect(page.getByRole("status").filter({ hasText: /unreachable|Connecting/ })).toBeVisible();
  const receipt = await page.request.post(`${host.url}/api/respond`, {
    data: { type: "answer", rpcId, sessionId, answers: [{ id: "color", selected: ["Red"] }, { id: "note", selected: [] }] },
  });
  expect(await receipt.json()).toEqual({ accepted: true });
  await expect(page.getByRole("region", { name: "Any note for the painter?" })).toBeVisible();

  refuse = false;
  await page.evaluate(() => window.dispatchEvent(new Event("online")));
  await expect(page.getByRole("region", { name: "Any note for the painter?" })).toBeHidden();
  const expected = { answers: [{ id: "color", selected: ["Red"] }, { id: "note", selected: [] }] };
  await expect(page.getByText(`Answers: ${JSON.stringify(expected)}`, { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /Ask question\s*1\/2 answered/ })).toBeVisible();
  const notice = page.getByRole("region", { name: "Answered or stopped while this tab was offline" });
  await expect(notice.getByRole("definition")).toHaveText(["Blue", "matte finish"]);
  await notice.getByRole("button", { name: "Copy answers" }).click();
  await expect(notice.getByRole("status")).not.toBeEmpty();
  await notice.getByRole("button", { name: "Dismiss" }).click();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
});

test("after a host restart mid-wizard the panel disappears and the row reads interrupted", async ({ page }) => {
  await askInNewSession(page);
  await host.restart();
  await page.evaluate(() => window.dispatchEvent(new Event("online")));

  await expect(page.getByRole("region", { name: "Any note for the painter?" })).toBeHidden({ timeout: 20_000 });
  await expect(page.getByRole("button", { name: /Ask question\s*interrupted/ })).toBeVisible();
  const notice = page.getByRole("region", { name: "Host lost: it restarted, and Parley's assistant no longer waits for these answers" });
  await expect(notice.getByRole("definition")).toHaveText(["Blue", "matte finish"]);
  await notice.getByRole("button", { name: "Dismiss" }).click();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /unreachable|Connecting/ })).toHaveCount(0);
});
