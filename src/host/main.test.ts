import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { QuestionRequestedFrame } from "../protocol/schemas";
import { DATABASE_FILE } from "./store";
import { api, connect, createSession, storeHealth, testStoreEnv } from "../testing/host/harness";
import { createTempDirs } from "../testing/host/temp-dirs";
import { startFakePushService } from "../testing/push/fake-push-service";

const TSX = path.resolve("node_modules/.bin/tsx");
const MAIN = path.resolve("src/host/main.ts");
const children: ChildProcess[] = [];

const { make: tempDir, removeAll: removeTempDirs } = createTempDirs("parley-main-");

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  removeTempDirs();
});

interface Launched {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  listening: () => Promise<{ url: string; hostId: string }>;
}

/** Starts the host on the run's store (src/testing/host/harness.ts, testStoreEnv). */
async function launch(env: Record<string, string>): Promise<Launched> {
  return launchOn(env, await testStoreEnv());
}

/** Starts the host on SQLite in its data dir, for what only an SQLite file can show. */
const launchOnSqlite = (env: Record<string, string>): Launched => launchOn(env, {});

function launchOn(env: Record<string, string>, store: Record<string, string>): Launched {
  const child = spawn(TSX, [MAIN], { env: { ...process.env, HOST: "127.0.0.1", PORT: "0", PARLEY_MODEL: "scripted", ...store, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  let announced: { url: string; hostId: string } | null = null;
  child.stdout!.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
    for (const line of stdout.split("\n")) {
      if (!line.startsWith("{")) continue;
      const entry = JSON.parse(line) as { event?: string; url?: string; hostId?: string };
      if (entry.event === "listening" && entry.url && entry.hostId) announced ??= { url: entry.url, hostId: entry.hostId };
    }
    child.stdout!.emit("announced");
  });
  const listening = () =>
    new Promise<{ url: string; hostId: string }>((resolve, reject) => {
      const check = () => {
        if (announced) resolve(announced);
      };
      check();
      child.stdout!.on("announced", check);
      void exited.then((code) => reject(new Error(`host exited with ${code}: ${stderr}`)));
    });
  return { child, stdout: () => stdout, stderr: () => stderr, exited, listening };
}

describe("main", { timeout: 30_000 }, () => {
  it("prints the listening line with the real port for PORT=0, logs JSON lines without message or answer text, and exits 0 on SIGTERM", async () => {
    const host = await launch({ PARLEY_DATA_DIR: tempDir() });
    const { url, hostId } = await host.listening();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url.endsWith(":0")).toBe(false);
    expect((await api(url, "/api/health")).body).toEqual({ ok: true, hostId, protocol: 2, model: "scripted", ...storeHealth({ hostId }), storage: { state: "ok" } });

    const client = await connect(url);
    const id = await createSession(url);
    const from = client.frames.length;
    await api(url, `/api/sessions/${id}/messages`, { json: { text: '/ask {"questions":[{"id":"secret","question":"Tell me the Zanzibar password"}]}' } });
    const requested = await client.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested");
    await api(url, "/api/respond", { json: { type: "answer", rpcId: requested.rpcId, sessionId: id, answers: [{ id: "secret", selected: [], custom: "Marmalade-42" }] } });
    await client.waitTurnEnd(id, from);

    host.child.kill("SIGTERM");
    expect(await host.exited).toBe(0);
    expect((await client.closed).code).toBe(1001);
    const lines = host
      .stdout()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const events = lines.map((line) => line.event);
    expect(events).toContain("http");
    expect(lines).toContainEqual(expect.objectContaining({ event: "question/requested", rpcId: requested.rpcId, sessionId: id }));
    expect(lines).toContainEqual(expect.objectContaining({ event: "question/resolved", rpcId: requested.rpcId, sessionId: id, outcome: "answered" }));
    expect(lines).toContainEqual(expect.objectContaining({ event: "http", method: "POST", path: "/api/respond", status: 200 }));
    expect(events.at(-1)).toBe("stopped");
    expect(host.stdout()).not.toContain("Marmalade");
    expect(host.stdout()).not.toContain("Zanzibar");
    expect(host.stderr()).toBe("");
  });

  it("settles a pending question as aborted and exits 0 on SIGINT", async () => {
    const host = await launch({ PARLEY_DATA_DIR: tempDir() });
    const { url } = await host.listening();
    const client = await connect(url);
    const id = await createSession(url);
    await api(url, `/api/sessions/${id}/messages`, { json: { text: '/ask {"questions":[{"id":"a","question":"A?"}]}' } });
    const requested = await client.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested");
    host.child.kill("SIGINT");
    expect(await host.exited).toBe(0);
    expect(client.frames.filter((frame) => frame.type === "question/resolved")).toEqual([
      { type: "question/resolved", rpcId: requested.rpcId, sessionId: id, outcome: "aborted" },
    ]);
  });

  it("refuses a corrupt database with one clear line on stderr and exit code 1", async () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, DATABASE_FILE), "not a database ".repeat(100));
    const host = launchOnSqlite({ PARLEY_DATA_DIR: dataDir });
    const code = await host.exited;
    expect({ code, stderr: host.stderr() }).toEqual({ code: 1, stderr: `parley: cannot use the database at ${path.join(dataDir, DATABASE_FILE)}: file is not a database\n` });
  });

  it("refuses a data dir it cannot create with one line on stderr and exit code 1", async () => {
    const blocker = path.join(tempDir(), "file");
    writeFileSync(blocker, "");
    const host = launchOnSqlite({ PARLEY_DATA_DIR: path.join(blocker, "data") });
    expect(await host.exited).toBe(1);
    expect(host.stderr()).toMatch(/^parley: cannot open the database at .*: ENOTDIR[^\n]*\n$/);
  });

  it("never logs the token, even when it arrives in the link that sets the cookie", async () => {
    const host = await launch({ PARLEY_DATA_DIR: tempDir(), PARLEY_TOKEN: "Tok-Quokka-77-long-enough" });
    const { url } = await host.listening();
    expect((await api(url, "/?token=Tok-Quokka-77-long-enough")).status).toBe(302);
    expect((await api(url, "/api/health", { headers: { authorization: "Bearer Tok-Quokka-77-long-enough" } })).status).toBe(200);
    expect((await api(url, "/api/health")).status).toBe(401);
    host.child.kill("SIGTERM");
    expect(await host.exited).toBe(0);
    expect(host.stdout()).toContain('"path":"/"');
    expect(host.stdout()).not.toContain("Quokka");
  });

  it("refuses a PARLEY_PUBLIC_URL that is not https and a PARLEY_PUSH_SUBJECT that is not mailto: or https:, each with one line on stderr", async () => {
    const publicUrl = await launch({ PARLEY_DATA_DIR: tempDir(), PARLEY_PUBLIC_URL: "http://parley.example.net" });
    expect({ code: await publicUrl.exited, stderr: publicUrl.stderr() }).toEqual({ code: 1, stderr: "parley: PARLEY_PUBLIC_URL=http://parley.example.net is not an https:// origin such as https://parley.example.net\n" });
    const subject = await launch({ PARLEY_DATA_DIR: tempDir(), PARLEY_PUSH_SUBJECT: "parley@example.net" });
    expect({ code: await subject.exited, stderr: subject.stderr() }).toEqual({ code: 1, stderr: "parley: PARLEY_PUSH_SUBJECT=parley@example.net is not a mailto: or https: URL\n" });
  });

  it("with PARLEY_PUBLIC_URL requires its token on loopback, accepts that name as Host, and prints the https login link and its QR code", async () => {
    const host = await launch({ PARLEY_DATA_DIR: tempDir(), PARLEY_PUBLIC_URL: "https://parley.example.net", PARLEY_TOKEN: "Tok-Quokka-77-long-enough" });
    const { url } = await host.listening();
    await expect.poll(() => host.stderr()).toContain("  https://parley.example.net/?token=Tok-Quokka-77-long-enough\n");
    expect(host.stderr()).toContain("then tap Install and notify me");
    expect((await api(url, "/api/health")).status).toBe(401);
    const proxied = await api(url, "/api/health", { headers: { host: "parley.example.net", authorization: "Bearer Tok-Quokka-77-long-enough" } });
    expect(proxied.status).toBe(200);
    host.child.kill("SIGTERM");
    expect(await host.exited).toBe(0);
  });

  it("with PARLEY_PUBLIC_URL and no PARLEY_PUSH_SUBJECT, names the public address as the contact push services see", async () => {
    const pushService = await startFakePushService();
    try {
      const host = await launch({ PARLEY_DATA_DIR: tempDir(), PARLEY_PUBLIC_URL: "https://parley.example.net", PARLEY_TOKEN: "Tok-Quokka-77-long-enough", PARLEY_PUSH_ALLOW_LOOPBACK: "1" });
      const { url } = await host.listening();
      const headers = { authorization: "Bearer Tok-Quokka-77-long-enough" };
      const device = pushService.device();
      expect((await api(url, "/api/push/subscriptions", { json: device.subscription, headers })).status).toBe(201);
      const created = await api(url, "/api/sessions", { json: {}, headers });
      const id = (created.body as { session: { id: string } }).session.id;
      await api(url, `/api/sessions/${id}/messages`, { json: { text: '/ask {"questions":[{"id":"a","question":"A?"}]}' }, headers });
      const [push] = await pushService.waitFor(device, 1);
      expect([push!.status, push!.subject, push!.payload.kind]).toEqual([201, "https://parley.example.net", "request"]);
      host.child.kill("SIGTERM");
      expect(await host.exited).toBe(0);
    } finally {
      await pushService.close();
    }
  });

  it("refuses a port already in use with one line on stderr and exit code 1", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve()));
    try {
      const port = (blocker.address() as AddressInfo).port;
      const host = await launch({ PARLEY_DATA_DIR: tempDir(), PORT: String(port) });
      const code = await host.exited;
      expect({ code, stderr: host.stderr(), stdout: host.stdout() }).toEqual({
        code: 1,
        stderr: `parley: port ${port} is already in use; set PORT to another port\n`,
        stdout: expect.not.stringContaining('"event":"listening"'),
      });
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});
