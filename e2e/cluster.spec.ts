import { expect, test, type Page } from "@playwright/test";
import { removeDataDir, startHostProcess, type HostProcess } from "../src/testing/host/host-process";
import { postgresBinDir, startTestPostgres, type TestPostgres } from "../src/testing/host/postgres";
import { startTcpProxy, type TcpProxy } from "../src/testing/host/tcp-proxy";

// Two hosts on one Postgres, as a browser meets them through a proxy: the question asked on one host, the page on the other.
test.skip(postgresBinDir() === null, "no Postgres binaries (initdb, postgres): install Debian's postgresql to run the cluster in a browser");

let postgres: TestPostgres;
const hosts: HostProcess[] = [];
let proxy: TcpProxy | null = null;

test.beforeAll(async () => {
  postgres = await startTestPostgres();
});

test.afterEach(async () => {
  await proxy?.close();
  proxy = null;
  for (const host of hosts.splice(0)) {
    await host.kill("SIGKILL");
    removeDataDir(host.dataDir);
  }
});

test.afterAll(async () => {
  await postgres.stop();
});

async function startHosts(count: number): Promise<HostProcess[]> {
  const databaseUrl = await postgres.createDatabase();
  for (let index = 0; index < count; index++) hosts.push(await startHostProcess({ env: { PARLEY_DATABASE_URL: databaseUrl, PARLEY_LEASE_S: "3" } }));
  return hosts.slice(-count);
}

const batch = {
  questions: [
    { id: "color", question: "Favourite colour?", options: [{ label: "Red" }, { label: "Blue" }] },
    { id: "note", question: "Any note for the painter?" },
  ],
};
const answered = { answers: [{ id: "color", selected: ["Blue"] }, { id: "note", selected: [], custom: "matte finish" }] };

/** A session whose turn runs on `owner` and waits on the batch. */
async function askOn(owner: HostProcess): Promise<string> {
  const created = (await (await fetch(`${owner.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).json()) as { session: { id: string } };
  const posted = await fetch(`${owner.url}/api/sessions/${created.session.id}/messages`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text: `/ask ${JSON.stringify(batch)}` }) });
  expect(posted.status).toBe(202);
  return created.session.id;
}

/** Picks Blue and types the note, leaving the batch one Submit from sent. */
async function draftAnswers(page: Page) {
  await page.getByRole("region", { name: "Favourite colour?" }).getByRole("radio", { name: "Blue" }).click();
  await page.getByRole("region", { name: "Any note for the painter?" }).getByRole("textbox", { name: "Type your answer" }).fill("matte finish");
}

test("a question a turn asks on one host is answered in a page served by the other", async ({ page }) => {
  const [owner, other] = await startHosts(2);
  const sessionId = await askOn(owner!);
  await page.goto(`${other!.url}/#session=${encodeURIComponent(sessionId)}`);
  await draftAnswers(page);
  await page.getByRole("region", { name: "Any note for the painter?" }).getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText(`Answers: ${JSON.stringify(answered)}`, { exact: true })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
});

test("the host a page is on dies: the page moves to the other host through the proxy and keeps the panel and its drafts", async ({ page }) => {
  const [owner, doomed] = await startHosts(2);
  // The proxy sends every connection to the one host it points at, and moves on when that host dies, as a proxy's health check would.
  let pointed = doomed!.port;
  proxy = await startTcpProxy(() => [pointed]);
  const sessionId = await askOn(owner!);
  await page.goto(`${proxy.url}/#session=${encodeURIComponent(sessionId)}`);
  await draftAnswers(page);

  await doomed!.kill("SIGKILL");
  pointed = owner!.port;
  const note = page.getByRole("region", { name: "Any note for the painter?" });
  // Back online through the other host (the page reconnects there by itself): nothing says connecting or offline, and the batch is as it was left.
  await expect.poll(() => proxy!.sent(owner!.port), { timeout: 20_000 }).toBeGreaterThan(0);
  await expect(page.getByRole("status").filter({ hasText: /Connecting|Offline|unreachable/ })).toHaveCount(0, { timeout: 20_000 });
  await expect(note.getByRole("textbox", { name: "Type your answer" })).toHaveValue("matte finish");
  await note.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText(`Answers: ${JSON.stringify(answered)}`, { exact: true })).toBeVisible();
});
