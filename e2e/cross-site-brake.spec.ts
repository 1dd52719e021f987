import { expect, test, type Page } from "@playwright/test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startHost, type TestHost } from "./host";

const TOKEN = "e2e-brake-token-0123456789";
/** Past the host's budget of 20 failed credentials per address at once. */
const BURST = 40;

let host: TestHost;
let attacker: Server;
let attackerPort: number;

/**
 * Another origin on this machine: a page that keeps firing wrong login links at the host from the owner's own
 * browser, a burst past the budget and then five a second, and counts the answers it got.
 */
function floodPage(target: string): string {
  return `<!doctype html><title>elsewhere</title><p id="count">0</p><script>
    let fired = 0;
    let answered = 0;
    const fire = () => {
      const image = new Image();
      image.onerror = image.onload = () => { document.getElementById("count").textContent = String(++answered); };
      image.src = ${JSON.stringify(target)} + "/?token=w" + fired++;
    };
    for (let i = 0; i < ${BURST}; i++) fire();
    setInterval(fire, 200);
  </script>`;
}

/**
 * Another port of this machine: a page that writes made-up values under the host's login cookie name, for every path the
 * app's requests take (browsers keep cookies apart by path, not by port, and send the longer paths first).
 */
function cookiePage(target: string): string {
  const name = `parley_login_${new URL(target).port}`;
  const paths = ["/", "/api", "/api/", "/api/sessions", "/api/mux", "/api/health", "/api/respond"];
  return `<!doctype html><title>elsewhere</title><script>
    for (const path of ${JSON.stringify(paths)}) document.cookie = ${JSON.stringify(name)} + "=made-up; path=" + path + "; max-age=3600";
    document.title = "written";
  </script>`;
}

/** As many cookies as a browser keeps for one host name (180 in Chromium), each as large as it takes (4 KiB): about 720 KiB in every request. */
const BOMB = { count: 180, bytes: 4_000 };

/** Another port of this machine: a page that fills the host name's cookie jar, so every request to the host carries all of it. */
function bombPage(): string {
  return `<!doctype html><title>elsewhere</title><script>
    const value = "x".repeat(${BOMB.bytes});
    for (let i = 0; i < ${BOMB.count}; i++) document.cookie = "crumb" + i + "=" + value + "; path=/; max-age=3600";
    document.title = "written " + document.cookie.length;
  </script>`;
}

test.beforeAll(async () => {
  attacker = createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(request.url === "/cookies" ? cookiePage(host.url) : request.url === "/bomb" ? bombPage() : floodPage(host.url));
  });
  await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
  attackerPort = (attacker.address() as AddressInfo).port;
});

test.afterAll(async () => {
  await new Promise((resolve) => attacker.close(resolve));
});

test.beforeEach(async () => {
  host = await startHost({ PARLEY_TOKEN: TOKEN });
});

test.afterEach(async () => {
  await host.dispose();
});

const nav = (page: Page) => page.getByRole("navigation", { name: "Chats" });

async function send(page: Page, text: string) {
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.fill(text);
  await composer.press("Enter");
  // The reply in the transcript (the chat's title, in the sidebar and the heading, now reads the same).
  await expect(page.getByRole("region", { name: "Messages" }).getByText(text.replace(/^\/echo /, ""), { exact: true })).toBeVisible();
}

/** The owner opens the login link and starts a chat, which opens again after a reload. */
async function logInAndChat(page: Page) {
  await page.goto(`${host.url}/?token=${TOKEN}`);
  await expect(page).toHaveURL(`${host.url}/`);
  await send(page, "/echo before");
}

/** The owner's page after a reload: the chat list loads, the chat opens, a new chat takes a message and gets its reply, and nothing is refused. */
async function ownerKeepsWorking(page: Page) {
  await page.reload();
  await expect(nav(page).getByRole("link", { name: "before" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("before");
  await page.getByRole("button", { name: "New chat" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New chat");
  await send(page, "/echo after");
  await expect(nav(page).getByRole("link", { name: "after" })).toBeVisible();
  await expect(nav(page).getByText("No chats yet.")).toHaveCount(0);
  await expect(page.getByRole("alert")).toHaveCount(0);
}

/** How many of its login links the flood page has seen answered. */
const answered = async (flood: Page) => Number(await flood.locator("#count").textContent());

for (const [name, origin] of [
  ["cross-site", () => `http://localhost:${attackerPort}/`],
  ["same-site", () => `http://127.0.0.1:${attackerPort}/`],
] as const) {
  test(`fence-brake: a ${name} page flooding wrong login links does not lock the owner out`, async ({ context, page }) => {
    await logInAndChat(page);

    const flood = await context.newPage();
    await flood.goto(origin());
    await expect.poll(() => answered(flood), { timeout: 30_000 }).toBeGreaterThan(BURST);

    await ownerKeepsWorking(page);

    const stillFiring = await answered(flood);
    await expect.poll(() => answered(flood), { timeout: 30_000 }).toBeGreaterThan(stillFiring + 5);
    const typed = await page.goto(`${host.url}/?token=a-wrong-token-typed-by-hand`);
    expect(typed?.status()).toBe(401);
  });
}

test("fence-brake: while a program on this machine keeps guessing tokens and is braked, the owner's login keeps working", async ({ page, playwright }) => {
  await logInAndChat(page);

  const guesser = await playwright.request.newContext();
  const braked = { count: 0 };
  let guess = 0;
  const guessOnce = () =>
    void guesser
      .get(`${host.url}/api/health`, { headers: { authorization: `Bearer guess-${guess++}` } })
      .then((response) => (braked.count += response.status() === 429 ? 1 : 0))
      .catch(() => undefined);
  const guessing = setInterval(guessOnce, 50);
  try {
    await expect.poll(() => braked.count, { timeout: 30_000 }).toBeGreaterThan(0);

    await ownerKeepsWorking(page);
    await page.goto(`${host.url}/?token=${TOKEN}`);
    await expect(page).toHaveURL(`${host.url}/`);
    await expect(nav(page).getByRole("link", { name: "after" })).toBeVisible();

    const before = braked.count;
    await expect.poll(() => braked.count, { timeout: 30_000 }).toBeGreaterThan(before);
  } finally {
    clearInterval(guessing);
    await guesser.dispose();
  }
});

test("fence-brake: a page on another port that writes made-up logins under the owner's cookie name does not lock the owner out", async ({ context, page }) => {
  await logInAndChat(page);
  const other = await context.newPage();
  await other.goto(`http://127.0.0.1:${attackerPort}/cookies`);
  await expect(other).toHaveTitle("written");
  const name = `parley_login_${new URL(host.url).port}`;
  const cookies = await context.cookies(`${host.url}/api/sessions`);
  // The owner's own login (HttpOnly, Path=/) is kept beside the made-up ones the page could add.
  expect(cookies.filter((cookie) => cookie.name === name).map((cookie) => [cookie.path, cookie.value === "made-up", cookie.httpOnly]).sort()).toEqual([
    ["/", false, true],
    ["/api", true, false],
    ["/api/", true, false],
    ["/api/sessions", true, false],
  ]);
  await ownerKeepsWorking(page);
  // Past the brake's budget of 20: were each request counted as a wrong login, the owner would be refused by now.
  const statuses = [];
  for (let attempt = 0; attempt < 25; attempt++) statuses.push((await page.request.get(`${host.url}/api/sessions`)).status());
  expect(new Set(statuses)).toEqual(new Set([200]));
});

test("fence-brake: a page on another port that fills the host name's cookie jar does not lock the owner out", async ({ context, page }) => {
  await logInAndChat(page);
  const other = await context.newPage();
  await other.goto(`http://127.0.0.1:${attackerPort}/bomb`);
  await expect(other).toHaveTitle(/^written \d+$/);
  const jar = await context.cookies(host.url);
  const crumbs = jar.filter((cookie) => cookie.name.startsWith("crumb"));
  // The jar was full (Chromium keeps 150 of a name's cookies once it passes 180), over half a megabyte on every request,
  // and the owner's login (Priority=High) was kept while the page's own were thinned out.
  expect({
    full: crumbs.length >= 140,
    bytes: crumbs.reduce((sum, cookie) => sum + cookie.name.length + cookie.value.length + 2, 0) > 512 * 1024,
    login: jar.filter((cookie) => !cookie.name.startsWith("crumb")).map((cookie) => cookie.name),
  }).toEqual({ full: true, bytes: true, login: [`parley_login_${new URL(host.url).port}`] });
  await ownerKeepsWorking(page);
});
