import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { connect as connectSocket, Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { api, connect, createSession, createTestHosts, loginCookieName, startTestServer, TEST_STORE } from "../testing/host/harness";
import { KEEP_ALIVE_MS } from "./server";

const hosts = createTestHosts();
const { start, open } = hosts;
afterEach(() => hosts.closeAll());

/** Sends a raw WebSocket upgrade and returns the status line the host answered with. */
function rawUpgrade(url: string, headers: Record<string, string>): Promise<{ status: number; upgraded: boolean }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/api/mux`, {
      headers: { Connection: "Upgrade", Upgrade: "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", ...headers },
    });
    req.on("upgrade", (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 0, upgraded: true });
    });
    req.on("response", (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, upgraded: false });
    });
    req.on("error", reject);
    req.end();
  });
}

/** Writes `text` to a fresh connection and returns everything the host answered before it closed the connection. */
function rawExchange(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connectSocket(Number(port), hostname);
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
    socket.write(text);
  });
}

/** A GET with headers `fetch` may not set (Host). */
function rawGet(url: string, pathname: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${pathname}`, { headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("HTTP uplink", () => {
  it("keeps an idle connection open past Node's 5 s, so a client's next request on it is not reset", async () => {
    const server = await start();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; keepAlive: string; reused: boolean }>((resolve, reject) => {
        const req = httpRequest(`${server.url}/api/health`, { agent }, (response) => {
          response.resume();
          response.on("end", () => resolve({ status: response.statusCode ?? 0, keepAlive: String(response.headers["keep-alive"]), reused: req.reusedSocket }));
        });
        req.on("error", reject);
        req.end();
      });
    try {
      expect(await get()).toEqual({ status: 200, keepAlive: `timeout=${KEEP_ALIVE_MS / 1000}`, reused: false });
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      expect(await get()).toEqual({ status: 200, keepAlive: `timeout=${KEEP_ALIVE_MS / 1000}`, reused: true });
    } finally {
      agent.destroy();
    }
  });

  it("answers /api/health with the host id and protocol", async () => {
    const server = await start();
    expect(await api(server.url, "/api/health")).toMatchObject({ status: 200, body: { ok: true, hostId: server.hostId, protocol: 2, model: "scripted" } });
  });

  it("creates sessions titled New chat, lists them newest first and returns one with its messages", async () => {
    const server = await start();
    const first = await api(server.url, "/api/sessions", { method: "POST" });
    expect(first.status).toBe(201);
    const session = (first.body as { session: Record<string, unknown> }).session;
    expect(session).toEqual({ id: session.id, title: "New chat", createdAt: session.createdAt, updatedAt: session.createdAt, state: "idle", revision: 0 });
    const second = await api(server.url, "/api/sessions", { json: { title: "Named" } });
    const named = (second.body as { session: { id: string; title: string } }).session;
    expect(named.title).toBe("Named");
    const listed = await api(server.url, "/api/sessions");
    expect((listed.body as { sessions: { id: string }[] }).sessions.map((item) => item.id)).toEqual([named.id, session.id]);
    expect(await api(server.url, `/api/sessions/${named.id}`)).toMatchObject({ status: 200, body: { session: named, messages: [] } });
  });

  it("answers 404 NOT_FOUND for an unknown session on every session route", async () => {
    const server = await start();
    const notFound = { status: 404, body: { error: { code: "NOT_FOUND", message: "no session nope" } } };
    expect(await api(server.url, "/api/sessions/nope")).toMatchObject(notFound);
    expect(await api(server.url, "/api/sessions/nope", { method: "DELETE" })).toMatchObject(notFound);
    expect(await api(server.url, "/api/sessions/nope/messages", { json: { text: "hi" } })).toMatchObject(notFound);
    expect(await api(server.url, "/api/sessions/nope/abort", { method: "POST" })).toMatchObject(notFound);
    expect(await api(server.url, "/api/nothing-here")).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
  });

  it("answers 400 INVALID_BODY for a message that is empty, too long or not text", async () => {
    const server = await start();
    const id = await createSession(server.url);
    for (const json of [{ text: "" }, { text: "x".repeat(20001) }, { words: "hi" }, { text: 3 }]) {
      const result = await api(server.url, `/api/sessions/${id}/messages`, { json });
      expect(result.status).toBe(400);
      expect((result.body as { error: { code: string } }).error.code).toBe("INVALID_BODY");
    }
  });

  it("answers 400 INVALID_BODY for a session body that is JSON but not an object, and takes null as no body", async () => {
    const server = await start();
    expect((await api(server.url, "/api/sessions", { body: "null", headers: { "content-type": "application/json" } })).status).toBe(201);
    for (const body of ["[]", '"title"', '{"title":3}']) {
      const result = await api(server.url, "/api/sessions", { body, headers: { "content-type": "application/json" } });
      expect([body, result.status, (result.body as { error: { code: string } }).error.code]).toEqual([body, 400, "INVALID_BODY"]);
    }
  });

  it("answers 400 INVALID_JSON for a body that does not parse and 415 for a body that is not JSON-typed", async () => {
    const server = await start();
    const id = await createSession(server.url);
    expect(await api(server.url, "/api/respond", { body: "{nope", headers: { "content-type": "application/json" } })).toEqual(
      expect.objectContaining({ status: 400, body: { error: { code: "INVALID_JSON", message: "the body is not valid JSON" } } }),
    );
    expect(await api(server.url, "/api/respond", { body: '{"type":"cancel"}', headers: { "content-type": "text/plain" } })).toEqual(
      expect.objectContaining({ status: 415, body: { error: { code: "UNSUPPORTED_MEDIA_TYPE", message: "send the body as Content-Type: application/json" } } }),
    );
    expect((await api(server.url, `/api/sessions/${id}/messages`, { body: "text=hi", headers: { "content-type": "application/x-www-form-urlencoded" } })).status).toBe(415);
  });

  it("answers 413 for a body over 256 KiB", async () => {
    const server = await start();
    const result = await api(server.url, "/api/respond", { json: { type: "cancel", rpcId: "x".repeat(256 * 1024), sessionId: "s" } });
    expect(result).toMatchObject({ status: 413, body: { error: { code: "PAYLOAD_TOO_LARGE" } } });
  });

  it("answers 409 TURN_RUNNING while a turn is running in the session", async () => {
    const server = await start();
    const id = await createSession(server.url);
    expect((await api(server.url, `/api/sessions/${id}/messages`, { json: { text: '/ask {"questions":[{"id":"a","question":"A?"}]}' } })).status).toBe(202);
    expect(await api(server.url, `/api/sessions/${id}/messages`, { json: { text: "/echo again" } })).toMatchObject({
      status: 409,
      body: { error: { code: "TURN_RUNNING", message: "a turn is already running in this session; abort it or wait" } },
    });
    expect(await api(server.url, `/api/sessions/${id}/abort`, { method: "POST" })).toMatchObject({ status: 202, body: { aborted: true } });
    expect(await api(server.url, `/api/sessions/${id}/abort`, { method: "POST" })).toMatchObject({ status: 202, body: { aborted: false } });
  });

  it("answers 426 for a plain GET of /api/mux", async () => {
    const server = await start();
    expect(await api(server.url, "/api/mux")).toMatchObject({ status: 426, body: { error: { code: "UPGRADE_REQUIRED" } } });
  });

  it("answers every respond body that parses with HTTP 200 and a receipt", async () => {
    const server = await start();
    expect(await api(server.url, "/api/respond", { json: { type: "answer" } })).toMatchObject({ status: 200, body: { accepted: false, reason: "bad-response" } });
    expect(await api(server.url, "/api/respond", { json: { type: "cancel", rpcId: "r", sessionId: "s" } })).toEqual(
      expect.objectContaining({ status: 200, body: { accepted: false, reason: "not-pending", detail: "question r is not pending (unknown, already answered, cancelled or aborted)" } }),
    );
  });

  it("deletes a session with 204 and broadcasts session/deleted", async () => {
    const server = await start();
    const id = await createSession(server.url);
    const client = await connect(server.url);
    expect((await api(server.url, `/api/sessions/${id}`, { method: "DELETE" })).status).toBe(204);
    await client.waitFor((frame) => frame.type === "session/deleted" && frame.sessionId === id);
    expect((await api(server.url, `/api/sessions/${id}`)).status).toBe(404);
    await client.close();
  });
});

describe("trust fence", () => {
  it("[fence-host] refuses a Host header that is not loopback with 403, on the API and on pages", async () => {
    const server = await start();
    expect(await rawGet(server.url, "/api/health", { host: "evil.example" })).toEqual({
      status: 403,
      body: '{"error":{"code":"FORBIDDEN","message":"the Host header is not a loopback name or an allowed host"}}',
    });
    expect((await rawGet(server.url, "/", { host: "evil.example" })).status).toBe(403);
    expect((await rawGet(server.url, "/", { host: "localhost:1; script-src *" })).status).toBe(403);
    expect((await rawGet(server.url, "/api/health", { host: `localhost:${server.port}` })).status).toBe(200);
    expect((await rawGet(server.url, "/api/health", { host: `[::1]:${server.port}` })).status).toBe(200);
  });

  it("answers a request with two Host headers 400 and closes, whichever comes first, on the API, /mcp, pages and the upgrade", async () => {
    const server = await start();
    const twoHosts = (target: string, first: string, second: string, extra = "") => rawExchange(server.url, `GET ${target} HTTP/1.1\r\nHost: ${first}\r\nHost: ${second}\r\n${extra}\r\n`);
    const body = '{"error":{"code":"BAD_REQUEST","message":"the request carries more than one Host header"}}';
    for (const target of ["/api/health", "/mcp", "/"]) {
      for (const [first, second] of [["127.0.0.1", "evil.example"], ["evil.example", "127.0.0.1"], ["127.0.0.1", "127.0.0.1"]] as const) {
        const answer = await twoHosts(target, first, second);
        expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
        expect(answer.slice(answer.indexOf("\r\n\r\n") + 4)).toBe(body);
      }
    }
    const upgrade = "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    expect((await twoHosts("/api/mux", "127.0.0.1", "evil.example", upgrade)).split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
    expect((await rawGet(server.url, "/api/health", { host: "127.0.0.1" })).status).toBe(200);
  });

  it("accepts a host listed in allowedHosts", async () => {
    const server = await start({ allowedHosts: ["parley.test"] });
    expect((await rawGet(server.url, "/api/health", { host: "parley.test:8787" })).status).toBe(200);
    expect((await rawGet(server.url, "/api/health", { host: "other.test" })).status).toBe(403);
  });

  it("[fence-origin] refuses a foreign Origin on a POST, and accepts its own and an allowed one", async () => {
    const server = await start({ allowedOrigins: ["http://127.0.0.1:5173"] });
    expect(await api(server.url, "/api/sessions", { method: "POST", headers: { origin: "https://evil.example" } })).toMatchObject({ status: 403, body: { error: { code: "FORBIDDEN" } } });
    expect((await api(server.url, "/api/sessions", { method: "POST", headers: { origin: server.url } })).status).toBe(201);
    expect((await api(server.url, "/api/sessions", { method: "POST", headers: { origin: "http://127.0.0.1:5173" } })).status).toBe(201);
  });

  it("refuses Sec-Fetch-Site: cross-site", async () => {
    const server = await start();
    expect(await api(server.url, "/api/sessions", { method: "POST", headers: { "sec-fetch-site": "cross-site" } })).toMatchObject({ status: 403 });
    expect((await api(server.url, "/api/sessions", { method: "POST", headers: { "sec-fetch-site": "same-origin" } })).status).toBe(201);
  });

  it("refuses a foreign Origin on the upgrade with a plain 403 and no 101", async () => {
    const server = await start();
    expect(await rawUpgrade(server.url, { Origin: "https://evil.example" })).toEqual({ status: 403, upgraded: false });
    expect(await rawUpgrade(server.url, { Host: "evil.example" })).toEqual({ status: 403, upgraded: false });
    expect(await rawUpgrade(server.url, { "Sec-Fetch-Site": "cross-site" })).toEqual({ status: 403, upgraded: false });
    expect(await rawUpgrade(server.url, { Origin: server.url })).toEqual({ status: 101, upgraded: true });
  });

  it("requires the token on the API and the upgrade when one is set, by bearer header or by the login cookie the link sets", async () => {
    const token = "s3cret-token-of-24-chars";
    const server = await start({ token });
    const cookieName = loginCookieName(server);
    expect(await api(server.url, "/api/health")).toMatchObject({ status: 401, body: { error: { code: "UNAUTHORIZED" } } });
    expect((await api(server.url, "/api/health", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await api(server.url, "/api/health", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    // The scheme is matched as HTTP's schemes are, in any case.
    for (const scheme of ["bearer", "BEARER", "BeArEr"]) expect((await api(server.url, "/api/health", { headers: { authorization: `${scheme} ${token}` } })).status).toBe(200);
    expect((await api(server.url, "/api/health", { headers: { authorization: `Bearer${token}` } })).status).toBe(401);
    expect(await rawUpgrade(server.url, {})).toEqual({ status: 401, upgraded: false });
    expect(await rawUpgrade(server.url, { Authorization: `bearer ${token}` })).toEqual({ status: 101, upgraded: true });
    expect((await api(server.url, "/?token=wrong")).status).toBe(401);
    const link = await api(server.url, `/?token=${token}`);
    expect(link.status).toBe(302);
    expect(link.headers.get("location")).toBe("/");
    const setCookie = link.headers.get("set-cookie") ?? "";
    const login = new RegExp(`^${cookieName}=([A-Za-z0-9_-]{43}); Path=/; HttpOnly; SameSite=Strict; Priority=High; Max-Age=2592000$`).exec(setCookie)?.[1];
    expect(setCookie.startsWith(`${cookieName}=`)).toBe(true);
    expect(login).toBeDefined();
    expect(setCookie).not.toContain(token);
    const cookie = `${cookieName}=${login}`;
    expect((await api(server.url, "/api/health", { headers: { cookie } })).status).toBe(200);
    expect((await api(server.url, "/api/health", { headers: { cookie: `parley_token=${token}` } })).status).toBe(401);
    expect((await api(server.url, "/api/health", { headers: { cookie: `parley_login_1=${login}` } })).status).toBe(401);
    await (await open(server.url, { cookie })).close();
  });

  it("marks the login cookie Secure, and its clearing too, when the host is reached over https", async () => {
    const token = "s3cret-token-of-24-chars";
    const server = await start({ token, secureCookie: true });
    const cookieName = loginCookieName(server);
    const setCookie = (await api(server.url, `/?token=${token}`)).headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(new RegExp(`^${cookieName}=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Strict; Priority=High; Secure; Max-Age=2592000$`));
    const cookie = setCookie.split(";")[0]!;
    const loggedOut = await api(server.url, "/api/logout", { method: "POST", headers: { cookie } });
    expect(loggedOut.headers.get("set-cookie")).toBe(`${cookieName}=; Path=/; HttpOnly; SameSite=Strict; Secure; Max-Age=0`);
  });

  it("gives every login its own random value, and ends one at once on logout", async () => {
    const token = "s3cret-token-of-24-chars";
    const server = await start({ token });
    const cookieOf = (header: string | null) => (header ?? "").split(";")[0]!;
    const first = cookieOf((await api(server.url, `/?token=${token}`)).headers.get("set-cookie"));
    const second = cookieOf((await api(server.url, `/?token=${token}`)).headers.get("set-cookie"));
    expect(first).not.toBe(second);
    const logout = await api(server.url, "/api/logout", { method: "POST", headers: { cookie: first } });
    expect(logout.status).toBe(200);
    expect(logout.body).toEqual({ loggedOut: true });
    expect(logout.headers.get("set-cookie")).toBe(`${loginCookieName(server)}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
    expect((await api(server.url, "/api/health", { headers: { cookie: first } })).status).toBe(401);
    expect((await api(server.url, "/api/health", { headers: { cookie: second } })).status).toBe(200);
  });

  it("refuses a token shorter than 16 characters", async () => {
    await expect(start({ token: "short-token" })).rejects.toThrow("PARLEY_TOKEN must be at least 16 characters long (it has 11)");
  });

  it("brakes wrong tokens per client address with 429 and Retry-After, never a right one, and leaves requests that offer none alone", async () => {
    const token = "s3cret-token-of-24-chars";
    const server = await start({ token, rateLimits: { authFailures: { burst: 3, perSecond: 0.01 } } });
    const wrong = { authorization: "Bearer guess" };
    const statuses = [];
    for (let attempt = 0; attempt < 5; attempt++) statuses.push((await api(server.url, "/api/health", { headers: wrong })).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const braked = await api(server.url, "/api/health", { headers: wrong });
    expect(braked.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await api(server.url, "/api/health", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await api(server.url, `/?token=${token}`)).status).toBe(302);
    expect((await api(server.url, "/?token=wrong")).status).toBe(429);
    expect(await rawUpgrade(server.url, { Authorization: "Bearer guess" })).toEqual({ status: 429, upgraded: false });
    expect(await rawUpgrade(server.url, { Authorization: `Bearer ${token}` })).toEqual({ status: 101, upgraded: true });
    expect((await api(server.url, "/api/health")).status).toBe(401);
  });

  it("does not count wrong login links that another site's page sent against the address", async () => {
    const token = "s3cret-token-of-24-chars";
    const server = await start({ token, rateLimits: { authFailures: { burst: 3, perSecond: 0.01 } } });
    const statuses = new Set<number>();
    for (let attempt = 0; attempt < 10; attempt++) {
      statuses.add((await api(server.url, `/?token=w${attempt}`, { headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image" } })).status);
      statuses.add((await api(server.url, `/?token=n${attempt}`, { headers: { "sec-fetch-site": "same-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" } })).status);
    }
    expect([...statuses]).toEqual([401]);
    const typed = [];
    for (let attempt = 0; attempt < 4; attempt++) typed.push((await api(server.url, `/?token=t${attempt}`, { headers: { "sec-fetch-site": "none", "sec-fetch-mode": "navigate" } })).status);
    expect(typed).toEqual([401, 401, 401, 429]);
  });
});

describe("mux downlink", () => {
  it("[mux-downlink] sends hello then synced on open", async () => {
    const server = await start();
    const client = await open(server.url);
    expect(client.frames).toEqual([{ type: "hello", protocol: 2, hostId: server.hostId, heartbeatMs: 15_000 }, { type: "synced" }]);
    await client.close();
  });

  it("mux-heartbeat: announces the heartbeat interval in hello and sends a heartbeat frame on every interval", async () => {
    const server = await start({ heartbeatIntervalMs: 40 });
    const client = await open(server.url);
    expect(client.frames[0]).toEqual({ type: "hello", protocol: 2, hostId: server.hostId, heartbeatMs: 40 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(client.heartbeats).toBeGreaterThanOrEqual(3);
    expect(client.frames.map((frame) => frame.type)).toEqual(["hello", "synced"]);
    await client.close();
  });

  // One host's frames: in a cluster (the suite on Postgres) every frame reaches the sockets through the database instead.
  it.skipIf(TEST_STORE === "postgres")("sends a chat's new state and its question (last) in one write to each tab, and the question's resolution and the state after it in one more", async () => {
    const server = await start();
    const sessionId = await createSession(server.url);
    const tabs = [await open(server.url), await open(server.url)];
    // Every chunk the host's end of a connection hands the operating system (the test's own ends have other local ports).
    const writes: string[] = [];
    const originals = { _write: Socket.prototype._write, _writev: Socket.prototype._writev! };
    const spies = (["_write", "_writev"] as const).map((hook) =>
      vi.spyOn(Socket.prototype, hook).mockImplementation(function (this: Socket, ...args: unknown[]) {
        if (this.localPort === server.port) writes.push(hook);
        Reflect.apply(originals[hook], this, args);
      }),
    );
    try {
      const stop = new AbortController();
      const asked = server.userInteraction.ask({ sessionId, signal: stop.signal, questions: [{ id: "q", question: "Which one?", options: [{ label: "A" }, { label: "B" }] }] }).then(
        () => "answered",
        (error: { code?: string }) => error.code,
      );
      const states = (tab: (typeof tabs)[number], from: number) =>
        tab.frames.slice(from).map((frame) => (frame.type === "session/upserted" ? `state ${frame.session.state}` : frame.type));
      const start = tabs.map((tab) => tab.frames.length);
      await expect.poll(() => tabs.map((tab, index) => states(tab, start[index]!))).toEqual([
        ["state waiting", "question/requested"],
        ["state waiting", "question/requested"],
      ]);
      expect(writes).toEqual(["_writev", "_writev"]);
      stop.abort();
      expect(await asked).toBe("ASK_ABORTED");
      await expect.poll(() => tabs.map((tab, index) => states(tab, start[index]!).slice(2))).toEqual([
        ["question/resolved", "state idle"],
        ["question/resolved", "state idle"],
      ]);
      expect(writes).toEqual(["_writev", "_writev", "_writev", "_writev"]);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("closes the socket with 1008 downlink only when the client sends a message", async () => {
    const server = await start();
    const client = await connect(server.url);
    client.socket.send("hello?");
    expect(await client.closed).toEqual({ code: 1008, reason: "downlink only" });
  });

  it("closes a socket that sends more than 64 KiB", async () => {
    const server = await start();
    const client = await connect(server.url);
    client.socket.send("x".repeat(64 * 1024 + 1));
    expect((await client.closed).code).toBe(1009);
  });

  it("closes every socket with 1001 on shutdown", async () => {
    const server = await startTestServer();
    const client = await connect(server.url);
    await server.close();
    expect((await client.closed).code).toBe(1001);
  });

  it("terminates a socket that misses a pong", async () => {
    const server = await start({ pingIntervalMs: 50 });
    const socket = new WebSocket(`${server.url.replace("http", "ws")}/api/mux`, { autoPong: false });
    const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
    expect(await closed).toBe(1006);
  });

  it("keeps a socket that answers pings open", async () => {
    const server = await start({ pingIntervalMs: 150 });
    const client = await connect(server.url);
    const pings = await new Promise<number>((resolve) => {
      let count = 0;
      client.socket.on("ping", () => {
        count += 1;
        if (count === 3) resolve(count);
      });
    });
    expect([pings, client.socket.readyState]).toEqual([3, WebSocket.OPEN]);
    await client.close();
  });
});

describe("static files", () => {
  it("serves a page saying to build the app when dist is missing, with the security headers", async () => {
    const server = await start();
    const page = await api(server.url, "/");
    expect(page.status).toBe(200);
    expect(page.body).toContain("npm run build");
    expect(page.headers.get("content-security-policy")).toBe(
      `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self' ws://127.0.0.1:${server.port} wss://127.0.0.1:${server.port}; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'`,
    );
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("serves built files, falls back to index.html for app routes, and never leaves the build directory", async () => {
    const dist = mkdtempSync(path.join(tmpdir(), "parley-dist-"));
    try {
      mkdirSync(path.join(dist, "assets"));
      writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>app</title>");
      writeFileSync(path.join(dist, "assets", "app.js"), "console.log(1)");
      const server = await start({ staticDir: dist });
      const script = await api(server.url, "/assets/app.js");
      expect([script.status, script.body, script.headers.get("content-type"), script.headers.get("x-content-type-options")]).toEqual([
        200,
        "console.log(1)",
        "text/javascript; charset=utf-8",
        "nosniff",
      ]);
      // An asset of another build is missing, never the app's page under its name.
      for (const missing of ["/assets/app-0ld.js", "/assets/../assets/gone.css", "/%61ssets/x.js"]) {
        const gone = await api(server.url, missing);
        expect([missing, gone.status, gone.body, gone.headers.get("cache-control")]).toEqual([missing, 404, "Not Found\n", "no-store"]);
      }
      for (const route of ["/", "/demo", "/demo/anything", "/%2e%2e/%2e%2e/etc/passwd"]) {
        const page = await api(server.url, route);
        expect([route, page.status, page.body]).toEqual([route, 200, "<!doctype html><title>app</title>"]);
        expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'self'");
      }
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
