import AxeBuilder from "@axe-core/playwright";
import { expect, test, type FrameLocator, type Locator, type Page } from "@playwright/test";
import { STORIES, type SettledPart, type SlotStory, type Story } from "../src/demo/stories";
import { pauseClock } from "./clock";
import { startHost, type TestHost } from "./host";

/** A tap where the previous step's tap was is ignored this long after an auto-advance (a double tap); wait it out between steps. */
const STEP_GUARD_MS = 350;

let host: TestHost;

test.beforeAll(async () => {
  host = await startHost();
});

test.afterAll(async () => {
  await host.dispose();
});

const PHONE = { width: 360, height: 640 };
const DESKTOP = { width: 1280, height: 800 };
const SCREENSHOT = { animations: "disabled", caret: "hide", maxDiffPixelRatio: 0.01 } as const;

type Scope = Page | FrameLocator;

function preview(page: Page): FrameLocator {
  return page.frameLocator("iframe.demo__frame");
}

/** The page's body once every one of these shows: a chat story's screen is in when its list, transcript and header are. */
function allOf(scope: Scope, ...parts: Locator[]): Locator {
  return parts.reduce((body, part) => body.filter({ has: part }), scope.locator("body"));
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** One part of a story's settled state, as the story names it (SettledPart). */
function partOf(scope: Scope, part: SettledPart): Locator {
  if ("command" in part) return scope.getByRole("listbox", { name: "Commands" }).getByRole("option").filter({ hasText: part.command });
  if ("role" in part) {
    const found = scope.getByRole(part.role, { ...(part.name === undefined ? {} : { name: part.name }), ...(part.hidden ? { includeHidden: true } : {}) });
    return part.text === undefined ? found : found.filter({ hasText: part.text });
  }
  if (part.start) return scope.getByText(new RegExp(`^${escaped(part.text)}`));
  return scope.getByText(part.text, { exact: part.exact === true });
}

/** Without a settled state of its own, a slot story has settled once its first request's panel or card shows. */
function requestShown(story: SlotStory): SettledPart {
  const first = story.requests[0]!;
  // An ACP agent's permission (approval with choices) is headed by the agent's title; an MCP server's by the server.
  if (first.approval?.choices) return { role: "region", name: `${first.origin?.title ?? first.approval.server} asks to run: ${first.approval.tool}` };
  if (first.approval) return { role: "region", name: `Allow ${first.approval.server} to run ${first.approval.tool}?` };
  return { role: "region", name: first.questions[story.initialDraft?.index ?? 0]!.question };
}

/** What shows once a story has reached the state it demonstrates: every part of its settled state. */
function settledState(scope: Scope, story: Story): Locator {
  const parts = story.settled ?? (story.scene === undefined ? [requestShown(story)] : []);
  if (parts.length === 1) return partOf(scope, parts[0]!);
  return allOf(scope, ...parts.map((part) => partOf(scope, part)));
}

/** Moves a paused clock on in small steps until `state` shows: the slow reply's 3 s never run out while we look. */
async function stepUntilShown(page: Page, state: Locator) {
  await expect(async () => {
    if (!(await state.isVisible())) await page.clock.runFor(50);
    expect(await state.isVisible()).toBe(true);
  }).toPass();
}

type StoryPath = "/demo" | `/demo?frame&theme=${"light" | "dark"}${"" | "&phone=1"}`;

/**
 * The moment a chat story opens at: its chats' times and sidebar groups are read against it, so "4 minutes ago" and
 * Yesterday hold in every screenshot. Midday, so the groups are the same in any time zone within 11 hours of UTC.
 */
const CHAT_CLOCK = new Date("2026-03-10T12:00:00.000Z");

/** Opens a story and waits for its state; `hold` keeps a slow reply in flight, with the page's clock stopped, while we look. */
async function openStory(page: Page, story: Story, path: StoryPath, hold = true) {
  const holding = hold && story.scene === undefined && story.reply === "slow";
  if (holding) await page.clock.install();
  if (story.scene !== undefined) await page.clock.setFixedTime(CHAT_CLOCK);
  await page.goto(`${host.url}${path}#${story.id}`);
  const scope = path === "/demo" ? preview(page) : page;
  if (holding) {
    await pauseClock(page);
    await stepUntilShown(page, settledState(scope, story));
  }
  await expect(settledState(scope, story)).toBeVisible();
  // Diffs and terminal output show plain until their renderers load.
  if (story.scene !== undefined) await expect(scope.locator('[aria-busy="true"]')).toHaveCount(0);
  if (story.scene === undefined && story.reason !== undefined) await expect(scope.locator("[data-approval-card] textarea")).toHaveValue(story.reason);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  return scope;
}

async function expectNoAxeViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((violation) => ({ id: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) })),
    label,
  ).toEqual([]);
}

async function loggedBodies(page: Page): Promise<unknown[]> {
  const texts = await page.locator(".demo__log-body").allTextContents();
  return texts.map((text) => JSON.parse(text) as unknown).reverse();
}

test.describe("every story", () => {
  for (const story of STORIES) {
    test(`${story.id}: renders in the light and dark themes with no axe violations`, async ({ page }) => {
      await page.setViewportSize(DESKTOP);
      // axe needs the page's timers, so the slow reply is not held here: the story may finish while axe reads it.
      await openStory(page, story, "/demo?frame&theme=light", false);
      await expectNoAxeViolations(page, `${story.id} light`);
      await openStory(page, story, "/demo?frame&theme=dark", false);
      await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
      await expectNoAxeViolations(page, `${story.id} dark`);
    });

    for (const [width, viewport, phone] of [
      ["phone", PHONE, "&phone=1"],
      ["desktop", DESKTOP, ""],
    ] as const) {
      test(`${story.id}: matches its ${width} screenshots in the light and dark themes`, async ({ page, context }) => {
        await page.setViewportSize(viewport);
        await openStory(page, story, `/demo?frame&theme=light${phone}`);
        await expect(page).toHaveScreenshot(`${story.id}-${width}-light.png`, SCREENSHOT);
        // A page of its own, so a clock held for the light shot does not hold the dark one.
        const dark = await context.newPage();
        await dark.setViewportSize(viewport);
        await openStory(dark, story, `/demo?frame&theme=dark${phone}`);
        await expect(dark).toHaveScreenshot(`${story.id}-${width}-dark.png`, SCREENSHOT);
      });
    }
  }
});

test.describe("the demo page", () => {
  test.use({ viewport: DESKTOP });

  test("has no axe violations around a story in either theme, with a body in the log", async ({ page }) => {
    await page.goto(`${host.url}/demo#dismiss-confirmation`);
    const frame = preview(page);
    await frame.getByRole("button", { name: "Discard", exact: true }).click();
    await expect(page.locator(".demo__log-result")).toHaveText("Accepted");
    await expectNoAxeViolations(page, "demo page light");
    await page.getByRole("radio", { name: "Dark" }).check();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await expect(frame.locator("html")).toHaveAttribute("data-theme", "dark");
    await expectNoAxeViolations(page, "demo page dark");
  });

  test("opens a story from its link and marks it as the current one", async ({ page }) => {
    await page.goto(`${host.url}/demo#single-select`);
    await page.getByRole("link", { name: /Plan review/ }).click();
    await expect(page).toHaveURL(/\/demo#plan-review$/);
    await expect(page.getByRole("link", { name: /Plan review/ })).toHaveAttribute("aria-current", "page");
    await expect(preview(page).getByRole("button", { name: "Approve", exact: true })).toBeVisible();
  });
});

test.describe("the respond log", () => {
  test.use({ viewport: DESKTOP });

  test("records the exact answer a single-select story sends, and the story can be replayed", async ({ page }) => {
    await page.goto(`${host.url}/demo#single-select`);
    const frame = preview(page);
    // A pick on a lone single-select question answers it.
    await frame.getByRole("radio", { name: "pnpm" }).click();
    await expect(frame.getByText("The host resolved the request: answered.")).toBeVisible();
    expect(await loggedBodies(page)).toEqual([
      { type: "answer", rpcId: "demo-single-select", sessionId: "demo-session", answers: [{ id: "pkg", selected: ["pnpm"] }] },
    ]);
    await expect(page.locator(".demo__log-result")).toHaveText("Accepted");
    await frame.getByRole("button", { name: "Replay story" }).click();
    await expect(frame.getByRole("radio", { name: "pnpm" })).not.toBeChecked();
  });

  test("records the exact answer of the mixed batch of four, recommended label in full", async ({ page }) => {
    await page.goto(`${host.url}/demo#mixed-batch`);
    const frame = preview(page);
    await frame.getByRole("radio", { name: "pnpm" }).click();
    await page.waitForTimeout(STEP_GUARD_MS);
    await frame.getByRole("radio", { name: "SQLite" }).click();
    await page.waitForTimeout(STEP_GUARD_MS);
    await frame.getByRole("checkbox", { name: "Chromium" }).click();
    await frame.getByRole("checkbox", { name: "WebKit" }).click();
    await frame.getByRole("textbox", { name: "Type your answer" }).fill("Safari Technology Preview");
    await frame.getByRole("button", { name: "Next", exact: true }).click();
    await frame.getByRole("textbox", { name: "Type your answer" }).fill("Parley");
    await frame.getByRole("button", { name: "Submit" }).click();
    await expect(frame.getByText("The host resolved the request: answered.")).toBeVisible();
    expect(await loggedBodies(page)).toEqual([
      {
        type: "answer",
        rpcId: "demo-mixed-batch",
        sessionId: "demo-session",
        answers: [
          { id: "pkg", selected: ["pnpm"] },
          { id: "db", selected: ["SQLite (Recommended)"] },
          { id: "browsers", selected: ["Chromium", "WebKit"], custom: "Safari Technology Preview" },
          { id: "name", selected: [], custom: "Parley" },
        ],
      },
    ]);
  });

  test("records the exact cancel the dismiss confirmation sends once Discard is pressed", async ({ page }) => {
    await page.goto(`${host.url}/demo#dismiss-confirmation`);
    const frame = preview(page);
    await frame.getByRole("button", { name: "Discard", exact: true }).click();
    await expect(frame.getByText("The host resolved the request: cancelled.")).toBeVisible();
    expect(await loggedBodies(page)).toEqual([{ type: "cancel", rpcId: "demo-dismiss", sessionId: "demo-session" }]);
  });

  test("records a rejected answer with its reason and keeps the drafts for a second try", async ({ page }) => {
    await page.goto(`${host.url}/demo#rejected-receipt`);
    const frame = preview(page);
    await expect(page.locator(".demo__log-result")).toHaveText(
      "Rejected: not-pending: question demo-rejected-receipt is not pending (unknown, already answered, cancelled or aborted)",
    );
    await page.getByLabel("Host reply").selectOption("accept");
    await frame.getByRole("button", { name: "Submit" }).click();
    await expect(frame.getByText("The host resolved the request: answered.")).toBeVisible();
    const sent = {
      type: "answer",
      rpcId: "demo-rejected-receipt",
      sessionId: "demo-session",
      answers: [
        { id: "pkg", selected: ["npm"] },
        { id: "name", selected: [], custom: "Parley" },
      ],
    };
    expect(await loggedBodies(page)).toEqual([sent, sent]);
  });

  test("copies a body with the clipboard API, and selects it with a hint when the clipboard is refused", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto(`${host.url}/demo#dismiss-confirmation`);
    await preview(page).getByRole("button", { name: "Discard", exact: true }).click();
    await page.getByRole("button", { name: "Show log (1)" }).click();
    await page.getByRole("button", { name: "Copy", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeInViewport();
    await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      '{"type":"cancel","rpcId":"demo-dismiss","sessionId":"demo-session"}',
    );
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException("Write permission denied.", "NotAllowedError"));
    });
    await page.getByRole("button", { name: "Copy", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "press Ctrl+C" })).toBeVisible();
    expect(await page.evaluate(() => window.getSelection()?.toString())).toContain('"type": "cancel"');
  });
});

test.describe("languages and phones", () => {
  test("the Chinese locale shows Chinese copy and still recognises （推荐）", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`${host.url}/demo#cjk-text`);
    // A switch applies once the Chinese texts are in (they load right after the first render), so the radio may take a
    // moment to turn; check() insists it turns at the click, so ask again until it has.
    const chinese = page.getByRole("radio", { name: "简体中文" });
    await expect(async () => {
      await chinese.check({ timeout: 2_000 });
    }).toPass();
    await expect(page.getByRole("heading", { name: "Parley 演示" })).toBeVisible();
    const frame = preview(page);
    await expect(frame.getByRole("button", { name: "忽略全部问题" })).toBeVisible();
    const react = frame.getByRole("radio", { name: "React", exact: true });
    await expect(react).toHaveAccessibleDescription(/推荐/);
    await expect(frame.locator(".question-option__badge")).toHaveText(["推荐"]);
    await react.click();
    await page.waitForTimeout(STEP_GUARD_MS);
    await frame.getByRole("radio", { name: "こんにちは" }).click();
    await frame.getByRole("button", { name: "提交" }).click();
    await expect(frame.getByText("主机已结束该请求：已回答。")).toBeVisible();
    expect(await loggedBodies(page)).toEqual([
      {
        type: "answer",
        rpcId: "demo-cjk-text",
        sessionId: "demo-session",
        answers: [
          { id: "framework", selected: ["React（推荐）"] },
          { id: "greeting", selected: ["こんにちは"] },
        ],
      },
    ]);
  });

  test("at 360×640 the custom field and the primary button stay visible above an on-screen keyboard", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto(`${host.url}/demo?frame#optionless`);
    const field = page.getByRole("textbox", { name: "Type your answer" });
    await field.click();
    await field.fill("Parley");
    await page.setViewportSize({ width: 360, height: 300 });
    await expect.poll(() => page.evaluate(() => window.visualViewport?.height)).toBe(300);
    await expect(page.getByRole("button", { name: "Submit" })).toBeInViewport({ ratio: 1 });
    await expect(field).toBeInViewport();
  });

  test("the preview keeps a real screen's height, above the app's short-screen layout, and the page scrolls to what is below it", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`${host.url}/demo#single-select`);
    await expect.poll(async () => (await page.locator("iframe.demo__frame").boundingBox())?.height ?? 0).toBeGreaterThan(480);
    await expect(preview(page).getByRole("region", { name: "Which package manager should the new workspace use?" })).toBeVisible();
    expect(await preview(page).locator("html").evaluate(() => window.matchMedia("(max-height: 480px)").matches)).toBe(false);
    await page.getByRole("button", { name: "Reset" }).scrollIntoViewIfNeeded();
    await expect(page.getByRole("button", { name: "Reset" })).toBeInViewport();
  });

  test("the width control previews the story at phone and tablet widths", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`${host.url}/demo#single-select`);
    const frameElement = page.locator("iframe.demo__frame");
    await page.getByRole("radio", { name: "Phone 360" }).check();
    await expect.poll(async () => (await frameElement.boundingBox())?.width).toBe(360);
    await page.getByRole("radio", { name: "Tablet 768" }).check();
    await expect.poll(async () => (await frameElement.boundingBox())?.width).toBe(768);
  });

  test("a phone preview hides the number-key hints a phone has no keys for", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`${host.url}/demo#single-select`);
    const hints = preview(page).locator(".question-option__key");
    await expect(hints.first()).toBeVisible();
    await page.getByRole("radio", { name: "Phone 360" }).check();
    await expect(hints.first()).toBeHidden();
  });
});

test.describe("controls that persist", () => {
  test.use({ viewport: DESKTOP });

  test("the log is collapsed, so the preview keeps its size when a body arrives, and opens on demand", async ({ page }) => {
    await page.goto(`${host.url}/demo#dismiss-confirmation`);
    const frameElement = page.locator("iframe.demo__frame");
    await expect(preview(page).getByText("Discard your answers?", { exact: true })).toBeVisible();
    const before = await frameElement.boundingBox();
    await preview(page).getByRole("button", { name: "Discard", exact: true }).click();
    const toggle = page.getByRole("button", { name: "Show log (1)" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(await frameElement.boundingBox()).toEqual(before);
    await toggle.click();
    await expect(page.getByRole("button", { name: "Hide log" })).toHaveAttribute("aria-expanded", "true");
    await expect(page.locator(".demo__log-body")).toBeVisible();
  });

  test("the fake host controls ask again, answer from another tab and restart the host, and the preview follows their frames", async ({ page }) => {
    await page.goto(`${host.url}/demo#single-select`);
    const frame = preview(page);
    const question = frame.getByRole("region", { name: "Which package manager should the new workspace use?" });
    await expect(question).toBeVisible();
    await page.getByRole("button", { name: "Answer in another tab" }).click();
    await expect(frame.getByText("The host resolved the request: answered.")).toBeVisible();
    await page.getByRole("button", { name: "Ask again" }).click();
    await expect(question).toBeVisible();
    await frame.getByRole("textbox", { name: "Type your answer" }).fill("Yarn 4");
    await page.getByRole("button", { name: "Restart host" }).click();
    const notice = frame.getByRole("region", { name: "Host lost: it restarted, and Parley's assistant no longer waits for these answers" });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText("Yarn 4");
    expect(await loggedBodies(page)).toEqual([]);
  });

  test("Host reply stays as chosen when another story opens", async ({ page }) => {
    await page.goto(`${host.url}/demo#single-select`);
    await page.getByLabel("Host reply").selectOption("not-pending");
    await page.getByRole("link", { name: /Multi-select/ }).click();
    await expect(page).toHaveURL(/#multi-select$/);
    await expect(page.getByLabel("Host reply")).toHaveValue("not-pending");
  });

  test("Host reply goes back to the story's own, and a fault story then shows its fault again", async ({ page }) => {
    await page.goto(`${host.url}/demo#single-select`);
    const reply = page.getByLabel("Host reply");
    await expect(reply.locator("option:checked")).toHaveText("The story's own (Accept)");
    await reply.selectOption("accept");
    await page.getByRole("link", { name: /Network error on send/ }).click();
    await expect(page).toHaveURL(/#network-error$/);
    await expect(reply).toHaveValue("accept");
    await expect(preview(page).getByText("The host resolved the request: answered.")).toBeVisible();
    await reply.selectOption("");
    await expect(reply.locator("option:checked")).toHaveText("The story's own (Network error)");
    await preview(page).getByRole("button", { name: "Replay story" }).click();
    await expect(preview(page).getByRole("status").filter({ hasText: "Failed to fetch" })).toBeVisible();
  });

  test("the playground lists every validation error with its path, hides the composer meanwhile, shows the panel once valid, and carries the input in the address", async ({ page }) => {
    await page.goto(`${host.url}/demo#playground`);
    const frame = preview(page);
    await expect(frame.getByRole("region", { name: "Which package manager?" })).toBeVisible();
    const args = page.getByRole("textbox", { name: "Input (JSON)" });
    const bad = JSON.stringify({
      questions: [
        { id: "a", question: "Ship?", header: "h".repeat(101), options: [{ label: "Yes" }, { label: "Yes" }] },
        { id: "a", question: 2 },
      ],
    });
    await args.fill(bad);
    const errors = frame.getByRole("alert");
    await expect(errors.getByRole("listitem")).toHaveText([/^questions\.1\.question:/, /^questions\.0\.header:/, /^questions\.0\.options\.1\.label:/, /^questions\.1\.id:/]);
    await expect(errors).toContainText("4 problems");
    await expect(page.getByRole("status").filter({ hasText: "4 problems" })).toBeVisible();
    await expect(frame.getByRole("textbox", { name: "Message" })).toBeHidden();
    expect(new URL(page.url()).searchParams.get("args")).toBe(bad);

    await args.fill(JSON.stringify({ questions: [{ id: "a", question: "" }] }));
    await expect(errors).toContainText("1 problem:");

    const good = JSON.stringify({ questions: [{ id: "go", question: "Ship it today?", options: [{ label: "Yes" }, { label: "No" }] }] });
    await args.fill(good);
    await expect(frame.getByRole("region", { name: "Ship it today?" })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("textbox", { name: "Input (JSON)" })).toHaveValue(good);
    await expect(preview(page).getByRole("region", { name: "Ship it today?" })).toBeVisible();
  });

  test("the playground takes an MCP form and a tool approval too, each listing its problems with their paths", async ({ page }) => {
    await page.goto(`${host.url}/demo#playground`);
    const frame = preview(page);
    await page.getByRole("radio", { name: "MCP form (message and requestedSchema)" }).check();
    await expect(frame.getByRole("region", { name: "Work email" })).toBeVisible();
    await expect(frame.getByText("Asked by the signup server")).toBeVisible();
    expect(new URL(page.url()).searchParams.get("input")).toBe("form");
    const args = page.getByRole("textbox", { name: "Input (JSON)" });
    await args.fill(JSON.stringify({ requestedSchema: { type: "object", properties: { a: { type: "string", format: "hostname" }, b: { type: "integer", minimum: 5, maximum: 1 } } } }));
    await expect(frame.getByRole("alert").getByRole("listitem")).toHaveText([/^requestedSchema\.properties\.a:/, /^requestedSchema\.properties\.b:/]);
    await expect(frame.getByRole("alert")).toContainText("2 problems");

    await page.getByRole("radio", { name: "Tool approval" }).check();
    await expect(frame.getByRole("region", { name: "Allow github to run create_issue?" })).toBeVisible();
    await args.fill(JSON.stringify({ server: "files", tool: "delete_file", arguments: { path: "/tmp/x" } }));
    await expect(frame.getByRole("region", { name: "Allow files to run delete_file?" })).toBeVisible();
    await frame.getByRole("button", { name: "Allow once" }).click();
    await expect(frame.getByText("The host resolved the request: answered.")).toBeVisible();
  });
});

test.describe("finding and sharing a story", () => {
  test.use({ viewport: DESKTOP });

  test("an unknown story id says so and lists every story, each a link that opens it", async ({ page }) => {
    await page.goto(`${host.url}/demo#no-such`);
    const notice = page.getByRole("alert");
    await expect(notice).toContainText("There is no story “no-such”.");
    await expect(notice.getByRole("link")).toHaveCount(STORIES.length);
    await expect(page.locator("iframe.demo__frame")).toHaveCount(0);
    await notice.getByRole("link", { name: "approval", exact: true }).click();
    await expect(preview(page).getByRole("region", { name: "Allow github to run create_issue?" })).toBeVisible();
  });

  test("the story list searches and folds its groups; a story is one click away", async ({ page }) => {
    await page.goto(`${host.url}/demo#single-select`);
    const forms = page.getByRole("button", { name: /^Forms \(\d+\)$/ });
    await expect(forms).toHaveAttribute("aria-expanded", "true");
    await forms.click();
    await expect(forms).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("link", { name: /Form: date and time/ })).toBeHidden();
    await page.getByRole("searchbox", { name: "Search stories" }).fill("date time");
    await expect(page.getByRole("link", { name: /^Form: / })).toHaveCount(1);
    await page.getByRole("link", { name: /Form: date and time/ }).click();
    await expect(preview(page).getByRole("region", { name: "Meeting time" })).toBeVisible();
    await page.getByRole("searchbox", { name: "Search stories" }).fill("nothing like this");
    await expect(page.getByRole("status").filter({ hasText: "No story matches" })).toBeVisible();
  });

  test("each story has a docs pane, an open-full-page link and a copy-link button", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto(`${host.url}/demo#approval-destructive`);
    const docs = page.getByRole("region", { name: "About this story" });
    await expect(docs).toContainText("A tool its server marks destructive");
    await expect(docs).toContainText("[approval-request]");
    const full = page.getByRole("link", { name: "Open full page" });
    await expect(full).toHaveAttribute("href", /^\/demo\?frame=.*#approval-destructive$/);
    await page.getByRole("button", { name: "Copy link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Link copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${host.url}/demo?theme=system&lang=en#approval-destructive`);
    await page.goto(`${host.url}${await full.getAttribute("href")}`);
    await expect(page.getByRole("region", { name: "Allow filesystem to run delete_directory?" })).toBeVisible();
  });
});

test.describe("controls", () => {
  test.use({ viewport: DESKTOP });

  test("Copy link shares the story as it is seen: the preview's width, side by side, the host's reply, the theme and the language", async ({ page, context, browser }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto(`${host.url}/demo#approval-destructive`);
    await page.getByRole("radio", { name: "Phone 360" }).check();
    await page.getByRole("radio", { name: "Dark" }).check();
    await page.getByRole("combobox", { name: "Host reply" }).selectOption("not-pending");
    await page.getByRole("combobox", { name: "Side by side" }).selectOption("themes");
    await expect.poll(() => new URL(page.url()).search).toBe("?width=phone&compare=themes&reply=not-pending");
    await page.getByRole("button", { name: "Copy link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Link copied" })).toBeVisible();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(`${host.url}/demo?width=phone&compare=themes&reply=not-pending&theme=dark&lang=en#approval-destructive`);

    // Opened where nothing was chosen yet: the same view, and the address keeps only what the workshop does not remember.
    const other = await browser.newContext({ viewport: DESKTOP });
    try {
      const opened = await other.newPage();
      await opened.goto(link.replace("lang=en", "lang=zh-CN"));
      await expect(opened.locator("html")).toHaveAttribute("lang", "zh-CN");
      await expect(opened.locator("html")).toHaveAttribute("data-theme", "dark");
      await expect(opened.locator("iframe.demo__frame")).toHaveCount(2);
      expect(await opened.locator("iframe.demo__frame").evaluateAll((frames) => frames.map((frame) => [frame.dataset.preview, frame.dataset.width]))).toEqual([
        ["light", "phone"],
        ["dark", "phone"],
      ]);
      await expect(opened.locator(".demo__reply select")).toHaveValue("not-pending");
      await expect.poll(() => new URL(opened.url()).search).toBe("?width=phone&compare=themes&reply=not-pending");
    } finally {
      await other.close();
    }
  });

  test("edit a story's content, see the preview follow, share it by its address, and Reset to the story", async ({ page }) => {
    await page.goto(`${host.url}/demo#single-select`);
    const frame = preview(page);
    const first = page.getByRole("group", { name: "Question 1" });
    await first.getByRole("textbox", { name: "Question text" }).fill("Which runtime?");
    await expect(frame.getByRole("region", { name: "Which runtime?" })).toBeVisible();
    await first.getByRole("textbox", { name: "Options, one per line" }).fill("Node\nDeno\nBun");
    await first.getByRole("combobox", { name: "Recommended option" }).selectOption("Bun");
    await first.getByRole("checkbox", { name: "Multi-select" }).check();
    await expect(frame.getByRole("checkbox", { name: "Bun" })).toBeVisible();
    await expect(frame.locator(".question-option__badge")).toHaveText(["Recommended"]);
    await page.getByRole("combobox", { name: "Asked by" }).selectOption("mcp-client");
    await page.getByRole("textbox", { name: "Name" }).fill("Zed agent");
    await expect(frame.getByText("Asked by Zed agent")).toBeVisible();
    expect(new URL(page.url()).searchParams.get("edit")).toContain("Which runtime?");

    await page.reload();
    await expect(preview(page).getByRole("region", { name: "Which runtime?" })).toBeVisible();
    await expect(preview(page).getByText("Asked by Zed agent")).toBeVisible();
    await page.getByRole("button", { name: "Reset" }).click();
    await expect(preview(page).getByRole("region", { name: "Which package manager should the new workspace use?" })).toBeVisible();
    expect(new URL(page.url()).searchParams.has("edit")).toBe(false);
  });

  test("Back and Forward bring a story back as it was edited; a story opened from the list starts unedited", async ({ page }) => {
    await page.goto(`${host.url}/demo#single-select`);
    await page.getByRole("group", { name: "Question 1" }).getByRole("textbox", { name: "Question text" }).fill("Which runtime?");
    await expect(preview(page).getByRole("region", { name: "Which runtime?" })).toBeVisible();
    await page.getByRole("link", { name: /^Multi-select/ }).click();
    await expect(page).toHaveURL(/#multi-select$/);
    expect(new URL(page.url()).searchParams.has("edit")).toBe(false);
    await expect(page.getByRole("button", { name: "Reset" })).toBeDisabled();
    await page.goBack();
    await expect(page).toHaveURL(/#single-select$/);
    await expect(preview(page).getByRole("region", { name: "Which runtime?" })).toBeVisible();
    await expect(page.getByRole("group", { name: "Question 1" }).getByRole("textbox", { name: "Question text" })).toHaveValue("Which runtime?");
    expect(new URL(page.url()).searchParams.get("edit")).toContain("Which runtime?");
    await page.goForward();
    await expect(page).toHaveURL(/#multi-select$/);
    await expect(page.getByRole("button", { name: "Reset" })).toBeDisabled();
  });

  test("typing in a knob of the story that arrives while typing keeps the focus in the knob as the story runs again", async ({ page }) => {
    await page.goto(`${host.url}/demo#arrives-while-typing`);
    const status = preview(page).getByRole("status").filter({ hasText: "Parley's assistant asks 2 questions. Press Alt+Q to answer." });
    await expect(status).toBeVisible();
    const knob = page.getByRole("group", { name: "Question 1" }).getByRole("textbox", { name: "Header" });
    await knob.fill("");
    await knob.pressSequentially("Stack", { delay: 50 });
    await expect(knob).toBeFocused();
    await expect(knob).toHaveValue("Stack");
  });

  test("an edit in the address that cannot be read lists its problems beside Reset, which returns to the story", async ({ page }) => {
    for (const edit of ["{}", "null", "x"]) {
      await page.goto(`${host.url}/demo?edit=${encodeURIComponent(edit)}#single-select`);
      const problems = page.getByRole("region", { name: "Controls" }).getByRole("alert");
      await expect(problems).toContainText("The address's edit of this story cannot be read");
      await expect(preview(page).getByRole("alert")).toContainText("1 problem");
    }
    await page.getByRole("button", { name: "Reset" }).click();
    await expect(preview(page).getByRole("region", { name: "Which package manager should the new workspace use?" })).toBeVisible();
    expect(new URL(page.url()).searchParams.has("edit")).toBe(false);
  });

  test("a field's bounds and an approval's tool call are controls too; edited content that breaks a rule shows its problems", async ({ page }) => {
    await page.goto(`${host.url}/demo#form-integer`);
    const frame = preview(page);
    await page.getByRole("spinbutton", { name: "Maximum" }).fill("30");
    await expect(frame.getByText("Submit", { exact: true })).toBeVisible();
    await page.getByRole("spinbutton", { name: "Maximum" }).fill("");
    await page.getByRole("link", { name: /Tool approval without arguments/ }).click();
    await page.getByRole("textbox", { name: "Tool" }).fill("restart_production");
    await expect(frame.getByRole("region", { name: "Allow deploy to run restart_production?" })).toBeVisible();
    await page.getByRole("link", { name: /^Single-select/ }).click();
    await page.getByRole("group", { name: "Question 1" }).getByRole("textbox", { name: "Options, one per line" }).fill("Same\nSame");
    await expect(frame.getByRole("alert")).toContainText("1 problem:");
    await expect(frame.getByRole("alert")).toContainText("questions.0.options.1.label");
    // The knobs stay while the edit breaks a rule, so the next keystroke can mend it; an empty question text too.
    await page.getByRole("group", { name: "Question 1" }).getByRole("textbox", { name: "Question text" }).fill("");
    await expect(frame.getByRole("alert")).toContainText("2 problems:");
    await page.getByRole("group", { name: "Question 1" }).getByRole("textbox", { name: "Options, one per line" }).fill("Same\nOther");
    await page.getByRole("group", { name: "Question 1" }).getByRole("textbox", { name: "Question text" }).fill("Mended?");
    await expect(frame.getByRole("region", { name: "Mended?" })).toBeVisible();
  });
});

test.describe("side by side", () => {
  test.use({ viewport: DESKTOP });

  test("shows the story at phone and desktop width, or in light and dark, at once", async ({ page }) => {
    await page.goto(`${host.url}/demo#single-select`);
    const compare = page.getByRole("combobox", { name: "Side by side" });
    await compare.selectOption("widths");
    const frames = page.locator("iframe.demo__frame");
    await expect(frames).toHaveCount(2);
    await expect.poll(async () => (await frames.nth(0).boundingBox())?.width).toBe(360);
    await expect.poll(async () => (await frames.nth(1).boundingBox())?.width ?? 0).toBeGreaterThan(500);
    for (const key of ["phone", "desktop"]) {
      await expect(page.frameLocator(`iframe[data-preview="${key}"]`).getByRole("region", { name: "Which package manager should the new workspace use?" })).toBeVisible();
    }
    await compare.selectOption("themes");
    await expect(page.frameLocator('iframe[data-preview="light"]').locator("html")).toHaveAttribute("data-theme", "light");
    await expect(page.frameLocator('iframe[data-preview="dark"]').locator("html")).toHaveAttribute("data-theme", "dark");
    await compare.selectOption("off");
    await expect(frames).toHaveCount(1);
  });
});
