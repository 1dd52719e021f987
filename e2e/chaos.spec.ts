import { expect, test, type Page, type WebSocketRoute } from "@playwright/test";
import { startHost, type TestHost } from "./host";
import { mulberry32 } from "../src/testing/seeded-random";

let host: TestHost;

test.beforeAll(async () => {
  host = await startHost();
});

test.afterAll(async () => {
  await host.dispose();
});

const TABS = 3;
const LIFECYCLES = 6;
const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));

interface Tab {
  page: Page;
  sessionId: string;
  routes: WebSocketRoute[];
  cuts: number;
}

async function openTab(page: Page): Promise<Tab> {
  const tab: Tab = { page, sessionId: "", routes: [], cuts: 0 };
  await page.routeWebSocket("**/api/mux", (socket) => {
    tab.routes.push(socket);
    const server = socket.connectToServer();
    server.onMessage((message) => socket.send(message));
    socket.onClose(() => server.close());
  });
  const created = await page.request.post(`${host.url}/api/sessions`, { data: {} });
  tab.sessionId = ((await created.json()) as { session: { id: string } }).session.id;
  await page.goto(`${host.url}/#session=${tab.sessionId}`);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  return tab;
}

async function cut(tab: Tab) {
  const open = tab.routes.length;
  tab.cuts++;
  await tab.routes[open - 1]!.close({ code: 1006, reason: "chaos" });
}

test(`chaos in Chromium: ${TABS} tabs answer ${TABS * LIFECYCLES} questions while their sockets are cut at random`, async ({ browser }) => {
  test.setTimeout(180_000);
  test.info().annotations.push({ type: "seed", description: `CHAOS_SEED=${SEED}` });
  console.log(`chaos seed: CHAOS_SEED=${SEED}`);
  const random = mulberry32(SEED);
  const chance = (p: number) => random() < p;
  const context = await browser.newContext();
  const tabs: Tab[] = [];
  for (let index = 0; index < TABS; index++) tabs.push(await openTab(await context.newPage()));
  const chosen = new Map<string, string[]>();

  async function lifecycle(tab: Tab, round: number) {
    const { page, sessionId } = tab;
    const questionId = `round-${round}`;
    const labels = [`Left ${round}`, `Right ${round}`];
    const ask = `/ask ${JSON.stringify({ questions: [{ id: questionId, question: `Round ${round} of ${sessionId.slice(0, 8)}?`, options: labels.map((label) => ({ label })) }] })}`;
    if (chance(0.3)) await cut(tab);
    await expect
      .poll(async () => (await page.request.post(`${host.url}/api/sessions/${sessionId}/messages`, { data: { text: ask } })).status(), { timeout: 20_000 })
      .toBe(202);
    if (chance(0.3)) await cut(tab);
    const panel = page.getByRole("region", { name: `Round ${round} of ${sessionId.slice(0, 8)}?` });
    await expect(panel).toBeVisible({ timeout: 20_000 });
    if (chance(0.3)) await cut(tab);
    const label = labels[Math.floor(random() * 2)]!;
    chosen.set(`${sessionId}/${questionId}`, [label]);
    await panel.getByRole("radio", { name: label }).click();
    if (chance(0.4)) await cut(tab);
    await expect(panel).toBeHidden({ timeout: 20_000 });
    const answer = `Answers: ${JSON.stringify({ answers: [{ id: questionId, selected: [label] }] })}`;
    await expect(page.getByText(answer, { exact: true })).toHaveCount(1, { timeout: 20_000 });
  }

  await Promise.all(
    tabs.map(async (tab) => {
      for (let round = 0; round < LIFECYCLES; round++) await lifecycle(tab, round);
    }),
  );

  expect(tabs.reduce((sum, tab) => sum + tab.cuts, 0)).toBeGreaterThan(0);
  for (const tab of tabs) {
    await expect(tab.page.getByRole("textbox", { name: "Message" })).toBeVisible();
    await expect(tab.page.getByRole("region", { name: /^Round / })).toHaveCount(0);
    const detail = (await (await tab.page.request.get(`${host.url}/api/sessions/${tab.sessionId}`)).json()) as {
      messages: { id: string; role: string; tool?: { status: string; result?: string; args: { questions: { id: string }[] } } }[];
    };
    expect(new Set(detail.messages.map((message) => message.id)).size).toBe(detail.messages.length);
    const toolRows = detail.messages.filter((message) => message.role === "tool");
    expect(toolRows.map((row) => [row.tool!.status, row.tool!.result])).toEqual(
      Array.from({ length: LIFECYCLES }, (_, round) => ["ok", JSON.stringify({ answers: [{ id: `round-${round}`, selected: chosen.get(`${tab.sessionId}/round-${round}`) }] })]),
    );
    for (let round = 0; round < LIFECYCLES; round++) {
      const answer = `Answers: ${JSON.stringify({ answers: [{ id: `round-${round}`, selected: chosen.get(`${tab.sessionId}/round-${round}`) }] })}`;
      await expect(tab.page.getByText(answer, { exact: true })).toHaveCount(1);
    }
    await expect(tab.page.getByRole("region", { name: "Messages" }).getByRole("listitem")).toHaveCount(detail.messages.length);
  }
  await context.close();
});
