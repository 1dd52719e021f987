import { expect, test, type Page } from "@playwright/test";
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
    { id: "pkg", question: "Which package manager should the workspace use?", options: [{ label: "pnpm" }, { label: "npm" }] },
    { id: "name", question: "What should the project be called?" },
  ],
};

interface RecordedNotification {
  title: string;
  options: { body?: string; tag?: string; actions?: unknown };
}

declare global {
  interface Window {
    __setHidden: (hidden: boolean) => void;
    __notifications: RecordedNotification[];
    __clickNotification: (index: number) => void;
  }
}

/** Lets a test hide the tab the way a browser does: `visibilityState` plus a `visibilitychange` event. */
function emulateVisibility() {
  let hidden = false;
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (hidden ? "hidden" : "visible") });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  window.__setHidden = (next: boolean) => {
    hidden = next;
    document.dispatchEvent(new Event("visibilitychange"));
  };
}

/** Records every notification instead of showing it; permission is granted. */
function recordNotifications() {
  const shown: { onclick: (() => void) | null }[] = [];
  window.__notifications = [];
  class RecordingNotification {
    static permission: NotificationPermission = "granted";
    static requestPermission = async (): Promise<NotificationPermission> => "granted";
    onclick: (() => void) | null = null;
    constructor(title: string, options: NotificationOptions & { actions?: unknown } = {}) {
      window.__notifications.push({ title, options: { body: options.body, tag: options.tag, actions: options.actions ?? null } });
      shown.push(this);
    }
    close() {}
  }
  Object.defineProperty(window, "Notification", { configurable: true, value: RecordingNotification });
  window.__clickNotification = (index: number) => shown[index]?.onclick?.();
}

async function askInNewSession(title: string): Promise<string> {
  const created = await fetch(`${host.url}/api/sessions`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ title }),
  });
  expect(created.status).toBe(201);
  const { session } = (await created.json()) as { session: { id: string } };
  const posted = await fetch(`${host.url}/api/sessions/${session.id}/messages`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ text: `/ask ${JSON.stringify(batch)}` }),
  });
  expect(posted.status).toBe(202);
  return session.id;
}

async function openApp(page: Page) {
  await page.goto(host.url);
  await expect(page.getByRole("button", { name: "New chat" })).toBeVisible();
}

test("a question arriving in a hidden tab puts (1) in the title and a dot on the favicon until the tab is seen", async ({ page }) => {
  await page.addInitScript(emulateVisibility);
  await openApp(page);
  const plainTitle = await page.title();
  const icon = page.locator('link[rel~="icon"]');
  const plainIcon = await icon.getAttribute("href");
  await page.evaluate(() => window.__setHidden(true));
  await askInNewSession("Hidden tab");
  await expect(page).toHaveTitle(`(1) ${plainTitle}`);
  await expect(icon).toHaveAttribute("href", /^data:image\/svg\+xml,/);
  await page.evaluate(() => window.__setHidden(false));
  await expect(page).toHaveTitle(plainTitle);
  await expect(icon).toHaveAttribute("href", plainIcon!);
});

test("a question arriving while the tab is visible leaves the title alone", async ({ page }) => {
  await page.addInitScript(emulateVisibility);
  await openApp(page);
  const plainTitle = await page.title();
  await askInNewSession("Visible tab");
  // The chat's link in the sidebar carries its badge (its row sits inside the "Waiting for you" group's item too).
  await expect(page.getByRole("navigation", { name: "Chats" }).getByRole("link", { name: /Visible tab/ })).toContainText("Waiting for answer");
  expect(await page.title()).toBe(plainTitle);
});

test("with Notify me on, two hidden tabs show one notification with the question text, and clicking it opens the session", async ({
  context,
}) => {
  await context.grantPermissions(["notifications"]);
  await context.addInitScript(emulateVisibility);
  await context.addInitScript(recordNotifications);
  const first = await context.newPage();
  const second = await context.newPage();
  await openApp(first);
  await openApp(second);
  await first.getByRole("checkbox", { name: "Notify me" }).check();
  await expect(second.getByRole("checkbox", { name: "Notify me" })).toBeChecked();
  await first.evaluate(() => window.__setHidden(true));
  await second.evaluate(() => window.__setHidden(true));

  const sessionId = await askInNewSession("Two tabs");
  const shownIn = async () => [await first.evaluate(() => window.__notifications), await second.evaluate(() => window.__notifications)];
  await expect.poll(async () => (await shownIn()).flat().length).toBeGreaterThan(0);
  await expect(first).toHaveTitle(/^\(1\) /);
  await expect(second).toHaveTitle(/^\(1\) /);
  await first.waitForTimeout(1500);
  const [inFirst, inSecond] = await shownIn();
  const all = [...inFirst!, ...inSecond!];
  expect(all).toEqual([
    {
      title: "A question is waiting for you",
      options: { body: "Which package manager should the workspace use?\n+1 more", tag: expect.any(String), actions: null },
    },
  ]);

  const winner = inFirst!.length === 1 ? first : second;
  await winner.evaluate(() => window.__clickNotification(0));
  await expect(winner).toHaveURL(new RegExp(`#session=${sessionId}$`));
  await expect(winner.getByRole("region", { name: batch.questions[0]!.question })).toBeVisible();
});
