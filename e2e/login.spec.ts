import { expect, test } from "@playwright/test";
import { startHost, type TestHost } from "./host";

const TOKEN = "e2e-login-token-0123456789";
let host: TestHost;

test.beforeAll(async () => {
  host = await startHost({ PARLEY_TOKEN: TOKEN });
});

test.afterAll(async () => {
  await host.dispose();
});

test("fence-login: the login link sets a per-port login cookie that is not the token, and the app works over it, socket included", async ({ page, context }) => {
  await page.goto(`${host.url}/?token=${TOKEN}`);
  await expect(page).toHaveURL(`${host.url}/`);
  const cookies = await context.cookies(host.url);
  const port = new URL(host.url).port;
  expect(cookies.map((cookie) => cookie.name)).toEqual([`parley_login_${port}`]);
  expect(cookies[0]!.value).not.toContain(TOKEN);
  expect(cookies[0]!.httpOnly).toBe(true);
  expect(cookies[0]!.sameSite).toBe("Strict");

  await page.getByRole("textbox", { name: "Message" }).fill('/ask {"questions":[{"id":"go","question":"Go ahead?","options":[{"label":"Yes"},{"label":"No"}]}]}');
  await page.getByRole("button", { name: "Send" }).click();
  const panel = page.getByRole("region", { name: "Go ahead?" });
  await panel.getByRole("radio", { name: "Yes" }).click();
  await expect(page.getByText('Answers: {"answers":[{"id":"go","selected":["Yes"]}]}', { exact: true })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /unreachable|Connecting/ })).toHaveCount(0);
});

test("fence-token: without a login the page says it needs the login link, the host refuses its API, and a wrong link token is refused", async ({ page }) => {
  const wrong = await page.goto(`${host.url}/?token=wrong-token-value-123456`);
  expect(wrong?.status()).toBe(401);
  await page.goto(host.url);
  await expect(page.getByRole("status").filter({ hasText: "This Parley host needs a login: open the link with the token that the host printed when it started." })).toBeVisible();
  const health = await page.request.get(`${host.url}/api/health`);
  expect(health.status()).toBe(401);
  expect(await health.json()).toEqual({ error: { code: "UNAUTHORIZED", message: "a valid token is required (Authorization: Bearer <token>, or open the login link)" } });
});
