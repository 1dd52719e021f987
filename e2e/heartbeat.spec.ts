import { expect, test } from "@playwright/test";
import { createServer, connect, type Server, type Socket } from "node:net";
import { startHost, type TestHost } from "./host";

/** A TCP proxy on 127.0.0.1 that can stop forwarding without closing anything, as a half-open network does, and resume. */
interface BlackHoleProxy {
  url: string;
  stop(): void;
  resume(): void;
  close(): Promise<void>;
}

function startProxy(target: URL): Promise<BlackHoleProxy> {
  let holding = false;
  const held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const pipe = (from: Socket, to: Socket) => {
    from.on("data", (chunk: Buffer) => {
      if (holding) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
    from.on("end", () => (holding ? held.push(() => to.end()) : to.end()));
    from.on("error", () => to.destroy());
    from.on("close", () => sockets.delete(from));
  };
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    pipe(client, upstream);
    pipe(upstream, client);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        stop: () => {
          holding = true;
        },
        resume: () => {
          holding = false;
          held.splice(0).forEach((flush) => flush());
        },
        close: () => {
          sockets.forEach((socket) => socket.destroy());
          return new Promise((done) => server.close(() => done()));
        },
      });
    });
  });
}

const HEARTBEAT_MS = 500;
let host: TestHost;
let proxy: BlackHoleProxy;

test.beforeAll(async () => {
  host = await startHost({ PARLEY_HEARTBEAT_MS: String(HEARTBEAT_MS) });
  proxy = await startProxy(new URL(host.url));
});

test.afterAll(async () => {
  await proxy.close();
  await host.dispose();
});

test("mux-heartbeat: a black-holed connection shows offline within 2.5 heartbeats and comes back on its own with the panel and its drafts", async ({ page }) => {
  const batch = { questions: [{ id: "note", question: "Any note for the painter?" }, { id: "coats", question: "How many coats?", options: [{ label: "One" }, { label: "Two" }] }] };
  await page.goto(proxy.url);
  await page.getByRole("textbox", { name: "Message" }).fill(`/ask ${JSON.stringify(batch)}`);
  await page.getByRole("button", { name: "Send" }).click();
  const note = page.getByRole("region", { name: "Any note for the painter?" });
  await note.getByRole("textbox", { name: "Type your answer" }).fill("matte finish");
  const offline = page.getByRole("status").filter({ hasText: /^(Parley's host is unreachable\. Reconnecting…|Connecting to Parley…)/ });
  await expect(offline).toHaveCount(0);

  proxy.stop();
  const stoppedAt = Date.now();
  await expect(offline).toBeVisible({ timeout: HEARTBEAT_MS * 2.5 + 4_000 });
  expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(HEARTBEAT_MS);

  proxy.resume();
  await expect(offline).toHaveCount(0, { timeout: 15_000 });
  await expect(note.getByRole("textbox", { name: "Type your answer" })).toHaveValue("matte finish");
  await note.getByRole("button", { name: "Next", exact: true }).click();
  const coats = page.getByRole("region", { name: "How many coats?" });
  await coats.getByRole("radio", { name: "Two" }).click();
  await coats.getByRole("button", { name: "Submit" }).click();
  const expected = { answers: [{ id: "note", selected: [], custom: "matte finish" }, { id: "coats", selected: ["Two"] }] };
  await expect(page.getByText(`Answers: ${JSON.stringify(expected)}`, { exact: true })).toBeVisible();
});
