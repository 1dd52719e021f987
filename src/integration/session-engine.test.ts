import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { createApi, type Api } from "../client/api";
import { createMux, type MuxOptions, type MuxSocketConstructor } from "../client/mux";
import { createSessionEngine, type SessionEngine, type SessionEngineEvent } from "../client/session-engine";
import { createScriptedModel } from "../host/models/scripted";
import { createCleanup } from "../testing/host/cleanup";
import { startTestServer } from "../testing/host/harness";
import type { Message, PendingRequest } from "../protocol/schemas";
import { createSessionStore, type SessionStore } from "../store/session-store";

const WAIT_MS = 10_000;

/** Polls `probe` until it returns something truthy, and returns that. */
function until<T>(probe: () => T | null | undefined | false, label: string): Promise<T> {
  return vi.waitFor(
    () => {
      const value = probe();
      if (!value) throw new Error(`timed out waiting for ${label}`);
      return value;
    },
    { timeout: WAIT_MS, interval: 5 },
  );
}

/** A browser tab without the DOM: the real engine, store, api and mux over a `ws` socket; `navigate` opens, as the hash does in the app. */
class EngineTab {
  readonly store: SessionStore = createSessionStore();
  readonly events: SessionEngineEvent[] = [];
  readonly engine: SessionEngine;
  /** While false, every attempt to open a socket fails at once, as it does with the network gone. */
  readonly network = { up: true };

  constructor(base: string, api: Api = createApi({ baseUrl: base }), keepDrafts = false) {
    const network = this.network;
    class GatedSocket extends WebSocket {
      constructor(url: string) {
        if (!network.up) throw new Error("the network is down");
        super(url);
      }
    }
    const connect = (options: MuxOptions) =>
      createMux({ ...options, WebSocket: GatedSocket as unknown as MuxSocketConstructor, random: () => 0.5, subscribeWake: () => () => undefined });
    this.engine = createSessionEngine({ store: this.store, api, connect, url: `${base.replace(/^http/, "ws")}/api/mux`, drafts: new Map(), newChatDraftKey: "", retireDraft: () => keepDrafts });
    this.engine.on((event) => {
      this.events.push(event);
      if (event.type === "navigate") this.engine.open(event.sessionId);
    });
  }

  async start(): Promise<void> {
    const from = this.events.length;
    this.engine.start();
    await this.until(() => this.events.slice(from).some((event) => event.type === "synced"), "synced");
  }

  until<T>(probe: () => T | null | undefined | false, label: string): Promise<T> {
    return until(probe, label);
  }

  held(sessionId: string): PendingRequest[] {
    return (this.store.getState().pending[sessionId] ?? []).map((entry) => entry.request);
  }

  transcript(sessionId: string): Message[] {
    return this.store.getState().transcripts[sessionId] ?? [];
  }

  sessionState(sessionId: string) {
    return this.store.getState().sessions.find((session) => session.id === sessionId)?.state;
  }
}

const cleanup = createCleanup();
const tempDirs: string[] = [];
afterEach(async () => {
  await cleanup.closeAll();
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function open(base: string, api?: Api, keepDrafts?: boolean): EngineTab {
  const tab = new EngineTab(base, api, keepDrafts);
  cleanup.sockets.push({ close: async () => tab.engine.close() });
  return tab;
}

/** The scripted model pauses between a reply's pieces for longer than a paint, so a tab sees the reply grow. */
async function startHost() {
  const server = await startTestServer({ rateLimits: false, model: createScriptedModel({ chunkDelayMs: 40 }) });
  cleanup.servers.push(server);
  return server;
}

/** A host and two started tabs on it. */
async function hostWithTwoTabs() {
  const server = await startHost();
  const first = open(server.url);
  const second = open(server.url);
  await Promise.all([first.start(), second.start()]);
  return { server, first, second };
}

const ASK = {
  questions: [{ id: "color", question: "Which colour?", options: [{ label: "Red" }, { label: "Blue" }] }],
};

describe("the session engine against a real host", () => {
  it("sends a first message, streams the reply into the store, answers a question, and a second tab sees it resolved", async () => {
    const { first, second } = await hostWithTwoTabs();

    const texts: string[] = [];
    first.store.subscribe((state) => {
      for (const messages of Object.values(state.transcripts)) {
        const reply = messages.find((message) => message.role === "assistant");
        if (reply?.text !== undefined && texts.at(-1) !== reply.text) texts.push(reply.text);
      }
    });
    await first.engine.send(null, "/echo Hello from the engine");
    const navigated = first.events.find((event) => event.type === "navigate");
    expect(navigated).toEqual({ type: "navigate", sessionId: expect.any(String) });
    const sessionId = (navigated as { sessionId: string }).sessionId;
    await first.until(() => first.sessionState(sessionId) === "idle" && first.transcript(sessionId).length === 2, "the reply to finish");
    expect(first.transcript(sessionId).map((message) => [message.role, message.text])).toEqual([
      ["user", "/echo Hello from the engine"],
      ["assistant", "Hello from the engine"],
    ]);
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.every((text) => "Hello from the engine".startsWith(text))).toBe(true);
    await second.until(() => second.sessionState(sessionId) === "idle", "the second tab to list the session");

    await first.engine.send(sessionId, `/ask ${JSON.stringify(ASK)}`);
    const [asked] = await first.until(() => first.held(sessionId).length === 1 && first.held(sessionId), "the question to reach the first tab");
    await second.until(() => second.held(sessionId).some((held) => held.rpcId === asked!.rpcId), "the question to reach the second tab");
    expect(asked!.questions).toEqual(ASK.questions);
    const receipt = await first.engine.respond({ type: "answer", rpcId: asked!.rpcId, sessionId, answers: [{ id: "color", selected: ["Blue"] }] });
    expect(receipt).toEqual({ accepted: true });
    await second.until(() => second.held(sessionId).length === 0, "the question to leave the second tab");
    expect(first.held(sessionId)).toEqual([]);
    second.engine.open(sessionId);
    await second.until(() => second.sessionState(sessionId) === "idle" && second.transcript(sessionId).some((message) => message.tool?.status === "ok"), "the answered tool row in the second tab");
    const toolRow = second.transcript(sessionId).find((message) => message.role === "tool")!;
    expect([toolRow.tool!.status, toolRow.tool!.result]).toEqual(["ok", JSON.stringify({ answers: [{ id: "color", selected: ["Blue"] }] })]);
    expect(second.events.filter((event) => event.type === "load-failed" || event.type === "session-missing")).toEqual([]);
  });

  it("keeps what frames brought over a session fetch that started before them and answered after", async () => {
    const server = await startHost();
    const real = createApi({ baseUrl: server.url });
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let fetchedStale: Awaited<ReturnType<Api["getSession"]>> | null = null;
    const delayed: Api = {
      ...real,
      async getSession(sessionId) {
        const detail = await real.getSession(sessionId);
        fetchedStale = detail;
        await held;
        return detail;
      },
    };
    const tab = open(server.url, delayed);
    await tab.start();
    const sessionId = (await real.createSession()).id;
    await real.postMessage(sessionId, `/ask ${JSON.stringify(ASK)}`);
    const [asked] = await tab.until(() => tab.held(sessionId).length === 1 && tab.held(sessionId), "the question");

    tab.engine.open(sessionId);
    const stale = await tab.until(() => fetchedStale, "the fetch to read the waiting session");
    expect([stale.session.state, stale.messages.map((message) => message.tool?.status ?? message.role)]).toEqual(["waiting", ["user", "running"]]);
    expect(await real.respond({ type: "answer", rpcId: asked!.rpcId, sessionId, answers: [{ id: "color", selected: ["Red"] }] })).toEqual({ accepted: true });
    await tab.until(() => tab.sessionState(sessionId) === "idle" && tab.transcript(sessionId).some((message) => message.tool?.status === "ok"), "the frames of the answered turn");
    release();
    await tab.until(() => tab.events.some((event) => event.type === "loaded"), "the delayed fetch to land");

    const fresh = await real.getSession(sessionId);
    expect(tab.store.getState().sessions.find((session) => session.id === sessionId)).toEqual(fresh.session);
    expect(tab.transcript(sessionId)).toEqual(fresh.messages);
  });

  it("navigates away from the open session when another tab deletes it", async () => {
    const { server, first, second } = await hostWithTwoTabs();
    const sessionId = (await createApi({ baseUrl: server.url }).createSession("Doomed")).id;
    const opened = first.events.length;
    first.engine.open(sessionId);
    await first.until(() => first.events.slice(opened).some((event) => event.type === "loaded"), "the session to load");
    await second.until(() => second.sessionState(sessionId) === "idle", "the second tab to list it");

    second.engine.requestDelete(sessionId);
    second.engine.flushDeletes();
    await first.until(() => first.events.some((event) => event.type === "navigate"), "the first tab to navigate");
    expect(first.events.filter((event) => event.type === "navigate")).toEqual([{ type: "navigate", sessionId: null }]);
    // The navigate may come from the session's own fetch (not found) before the deletion's frame reaches the list.
    await first.until(() => first.store.getState().sessions.length === 0, "the list to drop it");
    expect(first.store.getState().sessions.map((session) => session.id)).toEqual([]);
    await second.until(() => second.events.some((event) => event.type === "hidden-sessions" && event.sessionIds.size === 0), "the delete to finish");
    expect(second.events.filter((event) => event.type === "delete-failed")).toEqual([]);
  });

  it("re-baselines the list and the open session from a restarted host's hello, and retires the request the old host aborted", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "parley-engine-"));
    tempDirs.push(dataDir);
    const before = await startTestServer({ rateLimits: false, dataDir });
    const real = createApi({ baseUrl: before.url });
    const kept: string[] = [];
    const tab = open(before.url, real, true);
    await tab.start();
    const sessionId = (await real.createSession("Before the restart")).id;
    await real.postMessage(sessionId, `/ask ${JSON.stringify(ASK)}`);
    tab.engine.open(sessionId);
    const [asked] = await tab.until(() => tab.held(sessionId).length === 1 && tab.held(sessionId), "the question");
    tab.engine.on((event) => {
      if (event.type === "requests-left") kept.push(...event.retired.map((retired) => retired.reason));
    });

    tab.network.up = false;
    await before.close();
    await tab.until(() => tab.store.getState().connection === "offline", "the tab to go offline");
    const after = await startTestServer({ rateLimits: false, dataDir, port: before.port });
    cleanup.servers.push(after);
    const added = await real.createSession("Made while the tab was away");
    const renamed = await real.renameSession(sessionId, "Renamed while away");

    const from = tab.events.length;
    tab.network.up = true;
    tab.engine.retryNow();
    await tab.until(() => tab.events.slice(from).some((event) => event.type === "loaded") && tab.events.slice(from).some((event) => event.type === "synced"), "the re-baseline");
    expect(tab.store.getState().hostId).toBe(after.hostId);
    expect(tab.store.getState().sessions.map((session) => [session.id, session.title]).sort()).toEqual(
      [
        [added.id, "Made while the tab was away"],
        [sessionId, renamed.title],
      ].sort(),
    );
    expect(tab.held(sessionId)).toEqual([]);
    expect(tab.transcript(sessionId)).toEqual((await real.getSession(sessionId)).messages);
    expect(kept).toEqual(["stopped"]);
    // A new host's hello says why its predecessor's questions went; a cluster's id outlives its hosts (docs/protocol.md, cluster-fanout).
    const reason = process.env.PARLEY_TEST_STORE === "postgres" ? "stopped" : "host-restarted";
    expect(tab.store.getState().retired).toEqual({ [sessionId]: [{ request: asked, reason }] });
  });
});
