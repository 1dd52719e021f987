import { afterEach, describe, expect, it } from "vitest";
import type { Message, Session } from "../../protocol/schemas";
import type { RunningServer } from "../server";
import { api, connect, createSession, startTestServer } from "../../testing/host/harness";

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(overrides: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer({ rateLimits: false, ...overrides });
  servers.push(server);
  return server;
}

type Page = { sessions: Session[]; next: string | null };
const page = async (url: string, query: string) => (await api(url, `/api/sessions${query}`)).body as Page;

async function waitIdle(url: string, sessionId: string) {
  const client = await connect(url);
  const detail = async () => (await api(url, `/api/sessions/${sessionId}`)).body as { session: Session; messages: Message[] };
  for (let attempt = 0; attempt < 200 && (await detail()).session.state !== "idle"; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
  await client.close();
  return detail();
}

describe("GET /api/sessions pages and search", () => {
  it("[sessions-page] pages newest first with an opaque cursor until next is null", async () => {
    const server = await start();
    const ids: string[] = [];
    for (let index = 0; index < 7; index++) ids.push(await createSession(server.url, `chat ${index}`));
    const first = await page(server.url, "?limit=3");
    const second = await page(server.url, `?limit=3&before=${first.next}`);
    const third = await page(server.url, `?limit=3&before=${second.next}`);
    expect([first, second, third].map((part) => part.sessions.map((session) => session.title))).toEqual([
      ["chat 6", "chat 5", "chat 4"],
      ["chat 3", "chat 2", "chat 1"],
      ["chat 0"],
    ]);
    expect(third.next).toBeNull();
    expect((await page(server.url, "")).sessions.length).toBe(7);
  });

  it("matches titles and message text case-insensitively, with % and _ taken literally", async () => {
    const server = await start();
    const kiwi = await createSession(server.url, "Kiwi plans");
    const notes = await createSession(server.url, "notes");
    await createSession(server.url, "100% done");
    await api(server.url, `/api/sessions/${notes}/messages`, { json: { text: "/echo the KIWI harvest" } });
    await waitIdle(server.url, notes);
    expect((await page(server.url, "?q=kiwi")).sessions.map((session) => session.id).sort()).toEqual([kiwi, notes].sort());
    expect((await page(server.url, "?q=%25")).sessions.map((session) => session.title)).toEqual(["100% done"]);
    expect((await page(server.url, "?q=_")).sessions).toEqual([]);
  });

  it("refuses bad paging parameters with 400 INVALID_QUERY", async () => {
    const server = await start();
    for (const [query, message] of [
      ["?limit=0", "limit must be a whole number from 1 to 200"],
      ["?limit=201", "limit must be a whole number from 1 to 200"],
      ["?limit=1.5", "limit must be a whole number from 1 to 200"],
      ["?before=%25%25", "before must be the next cursor of an earlier page"],
      ["?before=WyJhIl0", "before must be the next cursor of an earlier page"],
      ["?sort=title", 'unknown query parameter "sort": use limit, before and q'],
    ]) {
      expect(await api(server.url, `/api/sessions${query}`)).toMatchObject({ status: 400, body: { error: { code: "INVALID_QUERY", message } } });
    }
  });
});

describe("PATCH /api/sessions/:id", () => {
  it("[sessions-rename] renames a session, trims the title, tells every tab and keeps it over the first message", async () => {
    const server = await start();
    const client = await connect(server.url);
    const id = await createSession(server.url);
    const renamed = await api(server.url, `/api/sessions/${id}`, { method: "PATCH", json: { title: "  Trip to Kyoto  " } });
    expect(renamed).toMatchObject({ status: 200, body: { session: { id, title: "Trip to Kyoto", state: "idle" } } });
    await client.waitFor((frame) => frame.type === "session/upserted" && frame.session.title === "Trip to Kyoto");
    await api(server.url, `/api/sessions/${id}/messages`, { json: { text: "/echo hi" } });
    expect((await waitIdle(server.url, id)).session.title).toBe("Trip to Kyoto");
    await client.close();
  });

  it("refuses an empty title with 400 and an unknown session with 404", async () => {
    const server = await start();
    const id = await createSession(server.url);
    expect(await api(server.url, `/api/sessions/${id}`, { method: "PATCH", json: { title: "   " } })).toMatchObject({ status: 400, body: { error: { code: "INVALID_BODY" } } });
    expect(await api(server.url, "/api/sessions/nope", { method: "PATCH", json: { title: "x" } })).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
    expect(await api(server.url, "/api/sessions/constructor", { method: "PATCH", json: { title: "x" } })).toMatchObject({ status: 404 });
    expect(await api(server.url, "/api/sessions/%E0%A4%A")).toMatchObject({ status: 400, body: { error: { code: "BAD_REQUEST", message: "a segment of the path is not valid percent-encoding" } } });
  });
});

describe("automatic titles", () => {
  it("[titles-auto] takes the first non-empty line of a plain message", async () => {
    const server = await start();
    const id = await createSession(server.url);
    await api(server.url, `/api/sessions/${id}/messages`, { json: { text: "\n\n  Plan the   move\nwith details below" } });
    expect((await waitIdle(server.url, id)).session.title).toBe("Plan the move");
  });

  it("[titles-auto] leaves the title automatic after a message with no words to title by, for the next one", async () => {
    const server = await start();
    const id = await createSession(server.url);
    await api(server.url, `/api/sessions/${id}/messages`, { json: { text: "/echo " } });
    const first = (await waitIdle(server.url, id)).session;
    await api(server.url, `/api/sessions/${id}/messages`, { json: { text: "/echo Dark mode" } });
    expect([first.title, (await waitIdle(server.url, id)).session.title]).toEqual(["New chat", "Dark mode"]);
  });

  it("takes the first question's header for /ask, never the JSON", async () => {
    const server = await start();
    const client = await connect(server.url);
    const id = await createSession(server.url);
    const questions = [{ id: "db", header: "Database", question: "Which database?", options: [{ label: "Postgres" }, { label: "SQLite" }] }];
    await api(server.url, `/api/sessions/${id}/messages`, { json: { text: `/ask ${JSON.stringify({ questions })}` } });
    await client.waitFor((frame) => frame.type === "question/requested");
    expect(((await api(server.url, `/api/sessions/${id}`)).body as { session: Session }).session.title).toBe("Database");
    await client.close();
  });

  it("takes a plan's first line for /plan", async () => {
    const server = await start();
    const client = await connect(server.url);
    const id = await createSession(server.url);
    await api(server.url, `/api/sessions/${id}/messages`, { json: { text: "/plan ## 1. Move the database\n2. Then the app" } });
    await client.waitFor((frame) => frame.type === "question/requested");
    expect(((await api(server.url, `/api/sessions/${id}`)).body as { session: Session }).session.title).toBe("Move the database");
    await client.close();
  });
});

describe("session creation and deep arguments", () => {
  it("rate-limits POST /api/sessions per client with 429 and creates nothing past the limit", async () => {
    const server = await start({ rateLimits: { sessions: { burst: 2, perSecond: 0.01 } } });
    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt++) statuses.push((await api(server.url, "/api/sessions", { json: {} })).status);
    expect(statuses).toEqual([201, 201, 429, 429]);
    expect((await page(server.url, "")).sessions.length).toBe(2);
  });

  it("[tool-depth] answers tool arguments nested 5,000 deep with INVALID_ARGS and ends the turn with the model's reply", async () => {
    const server = await start();
    const id = await createSession(server.url);
    const deep = `{"questions":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    await api(server.url, `/api/sessions/${id}/messages`, { json: { text: `/ask ${deep}` } });
    const { messages } = await waitIdle(server.url, id);
    expect(messages.map((message) => [message.role, message.tool?.status ?? null, message.tool?.error?.code ?? null])).toEqual([
      ["user", null, null],
      ["tool", "error", "INVALID_ARGS"],
      ["assistant", null, null],
    ]);
    expect(messages[1]!.tool!.error!.message).toBe("arguments are nested deeper than 64 levels");
    expect(messages[2]!.text).toBe("Error: INVALID_ARGS");
  });
});

describe("titles never carry bidi controls", () => {
  it("removes overrides, embeddings, isolates and marks from automatic, created and renamed titles", async () => {
    const server = await start();
    const client = await connect(server.url);
    const rlo = "\u202E";
    const id = await createSession(server.url, `Plan ${rlo}evorppa\u2066x\u2069`);
    expect(((await api(server.url, `/api/sessions/${id}`)).body as { session: Session }).session.title).toBe("Plan evorppax");
    const renamed = await api(server.url, `/api/sessions/${id}`, { method: "PATCH", json: { title: `\u200F${rlo}Kyoto` } });
    expect((renamed.body as { session: Session }).session.title).toBe("Kyoto");
    const asked = await createSession(server.url);
    const questions = [{ id: "q", header: `Pick ${rlo}evorppa`, question: "Which?", options: [{ label: "A" }, { label: "B" }] }];
    await api(server.url, `/api/sessions/${asked}/messages`, { json: { text: `/ask ${JSON.stringify({ questions })}` } });
    await client.waitFor((frame) => frame.type === "question/requested");
    expect(((await api(server.url, `/api/sessions/${asked}`)).body as { session: Session }).session.title).toBe("Pick evorppa");
    await client.close();
  });
});
