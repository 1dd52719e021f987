import { randomUUID } from "node:crypto";
import type { DownFrame, Message, QuestionOrigin, Session, SessionAgent, SessionState } from "../../protocol/schemas";
import type { AgentDirectory } from "./agent";
import type { Logger } from "../log";
import type { AcceptedAnswer } from "../pending/pending-table";
import { encodeCursor } from "./session-page";
import type { SessionPage, Store, StoredMedia, StoredMessage, StoredSession } from "../store";
import type { ToolDoor, ToolOutcome } from "../tools/registry";
import type { UserInteraction } from "../pending/user-interaction";
import { COMMAND_WITH_ARGUMENTS, DEFAULT_TITLE, cleanTitle, titleFrom, titleFromToolArgs } from "./titles";
import { createRuns, type OutsideToolCall } from "./runs";
import { createToolCalls } from "./tool-calls";
import { createTranscript, toWire } from "./transcript";
import { sessionWrites } from "./session-writes";

export interface ChatOptions {
  store: Store;
  /** The agent each session's turns run through, by its kind. */
  agents: AgentDirectory;
  /** Every tool an agent or an outside caller may call, behind one door. */
  tools: ToolDoor;
  /** The seam agents ask through. */
  interaction: Pick<UserInteraction, "ask">;
  broadcast(frame: DownFrame): void;
  pendingCount(sessionId: string): number;
  /** In a cluster: the state another host last published for a session whose turn runs there. */
  remoteState?(sessionId: string): SessionState | undefined;
  /** Other hosts write the same sessions (a cluster): a state change reads the session's row instead of reusing the one this host last published. */
  sharedStore?: boolean;
  log: Logger;
}

/** A tool a human allowed for one chat with `Allow for this chat` (docs/protocol.md, mcp-grants). */
export interface Grant {
  server: string;
  tool: string;
  grantedAt: string;
}

export type { OutsideToolCall } from "./runs";
export { turnFailureText } from "./runs";

export type PostResult = { ok: true; message: Message } | { ok: false; reason: "not-found" | "turn-running" | "agent-session" | "closing" };

/** The session service: sessions, transcripts, grants, media, and one turn per session run through its agent. */
export interface Chat {
  /** Every session, or one page of them (newest first), with the cursor of the next page. */
  listSessions(page?: SessionPage): Promise<{ sessions: Session[]; next: string | null }>;
  /** Renames a session (its title is no longer automatic); null when it does not exist. */
  renameSession(id: string, title: string): Promise<Session | null>;
  createSession(title?: string, agent?: SessionAgent): Promise<Session>;
  getSession(id: string): Promise<{ session: Session; messages: Message[] } | null>;
  /** The session's grants, oldest first; null when the session does not exist. */
  listGrants(sessionId: string): Promise<Grant[] | null>;
  /** Revokes a grant, so the tool asks again; null when the session does not exist, false when there was no such grant. */
  revokeGrant(sessionId: string, server: string, tool: string): Promise<boolean | null>;
  /** An image a tool returned, as the host keeps it; null when there is none with that id. */
  getMedia(id: string): Promise<StoredMedia | null>;
  postMessage(sessionId: string, text: string): Promise<PostResult>;
  /**
   * Runs an outside agent's tool call in the session, recorded as a tool row like the model's own;
   * Stop, deletion and shutdown abort it. Null when the session does not exist.
   */
  callTool(sessionId: string, call: OutsideToolCall, context: { signal: AbortSignal; onRequested?(rpcId: string): void; origin?: QuestionOrigin }): Promise<ToolOutcome | null>;
  /** Aborts the session's running turn and outside tool calls; null when the session does not exist. */
  abort(sessionId: string): Promise<boolean | null>;
  deleteSession(id: string): Promise<boolean>;
  /**
   * Another host of the cluster deleted the chat: its turn and outside tool calls here stop (their questions resolve
   * `aborted`), no frame of it follows, and its agent lets go of it.
   */
  deletedElsewhere(id: string): Promise<void>;
  /** Re-broadcasts the session when its computed state changed. */
  refresh(sessionId: string): Promise<void>;
  /** Aborts every turn and waits for them to end. */
  stop(): Promise<void>;
  /** The sessions whose turn this host is starting or running now (its agent's turns, not outside calls). */
  turnSessions(): string[];
  /** See ToolCalls.commitAnswer. */
  commitAnswer(answer: AcceptedAnswer): Promise<void>;
  /** Rows whose last write failed and is retried until storage takes it. */
  unsettledRows(): number;
}

/** The chat a frame this service publishes is about. */
export function sessionOfFrame(frame: DownFrame): string | null {
  switch (frame.type) {
    case "message/upserted":
      return frame.message.sessionId;
    case "message/delta":
      return frame.sessionId;
    case "session/upserted":
      return frame.session.id;
    default:
      return null;
  }
}

/**
 * The service's frames, but none about a chat already deleted while its turn is being stopped (`silence`, then `speak`
 * once it stopped): no frame of it follows `session/deleted`.
 */
function framesOf(send: (frame: DownFrame) => void) {
  const deleted = new Set<string>();
  return {
    broadcast(frame: DownFrame) {
      if (!deleted.has(sessionOfFrame(frame) ?? "")) send(frame);
    },
    silence: (sessionId: string) => void deleted.add(sessionId),
    speak: (sessionId: string) => void deleted.delete(sessionId),
  };
}

/** How a chat still titled automatically (the human has not renamed it) takes its title from its agent. */
function agentTitles(store: Store, write: ReturnType<typeof sessionWrites>["write"]) {
  return {
    /** After the first question or plan its agent asks. */
    async fromCall(sessionId: string, name: string, args: unknown) {
      const row = await store.getSession(sessionId);
      const title = row?.autoTitle ? titleFromToolArgs(name, args) : null;
      if (!row || title === null) return;
      await write(sessionId, { title, autoTitle: false }, { autoTitle: true });
    },
    /** As its agent named it. */
    async fromAgent(sessionId: string, title: string) {
      const row = await store.getSession(sessionId);
      const cleaned = cleanTitle(title).slice(0, 200);
      if (!row?.autoTitle || cleaned === "" || cleaned === row.title) return;
      await write(sessionId, { title: cleaned }, { autoTitle: true });
    },
  };
}

/** The posts taken and not yet through: a stop takes no more and waits for these. */
function takenPosts() {
  const posts = new Set<Promise<unknown>>();
  let stopping = false;
  return {
    get stopping() {
      return stopping;
    },
    hold<T>(post: Promise<T>): Promise<T> {
      posts.add(post);
      const done = () => void posts.delete(post);
      post.then(done, done);
      return post;
    },
    async drain() {
      stopping = true;
      while (posts.size > 0) await Promise.allSettled([...posts]);
    },
  };
}

export function createChat(options: ChatOptions): Chat {
  const { store, log } = options;
  const lastState = new Map<string, SessionState>();
  /** The row each session was last published with, when only this host writes sessions: a state change needs no read. */
  const lastRow = options.sharedStore ? null : new Map<string, StoredSession>();
  /** Sessions whose posted message is being written: a second post waits for the turn like any other. */
  const posting = new Set<string>();
  const posts = takenPosts();
  const { inOrder, write, touch } = sessionWrites(store, publishSession, (id) => lastRow?.get(id));
  const frames = framesOf(options.broadcast);
  const transcript = createTranscript({ store, broadcast: frames.broadcast, log });
  const titles = agentTitles(store, write);
  const toolCalls = createToolCalls({ store, transcript, tools: options.tools, log, retitle: titles.fromCall });
  const runs = createRuns({ store, log, transcript, toolCalls, interaction: options.interaction, touch, retitle: titles.fromAgent });

  const now = () => new Date().toISOString();
  const stateOf = (id: string): SessionState => (options.pendingCount(id) > 0 ? "waiting" : runs.running(id) ? "running" : (options.remoteState?.(id) ?? "idle"));
  const toSession = (row: StoredSession): Session => ({ id: row.id, title: row.title, createdAt: row.createdAt, updatedAt: row.updatedAt, state: stateOf(row.id), revision: row.revision, ...(row.agent ? { agent: row.agent } : {}) });

  function publishSession(row: StoredSession) {
    const session = toSession(row);
    lastState.set(row.id, session.state);
    lastRow?.set(row.id, row);
    frames.broadcast({ type: "session/upserted", session });
  }

  /** What this host keeps of a deleted chat goes, and none of its frames goes out until what of it runs here stopped. */
  function forgetDeleted(id: string) {
    transcript.forget(id);
    lastState.delete(id);
    lastRow?.delete(id);
    frames.silence(id);
  }

  /** Stops what of a deleted chat runs here; then its frames may go again (none will) and its agent lets go of it. */
  const stopDeleted = (id: string) => runs.abort(id).finally(() => (frames.speak(id), options.agents.forget?.(id)));

  return {
    async listSessions(page) {
      const rows = await store.listSessions(page);
      const last = rows.at(-1);
      return { sessions: rows.map(toSession), next: page && last && rows.length === page.limit ? encodeCursor(last) : null };
    },

    async renameSession(id, title) {
      const cleaned = cleanTitle(title);
      const updated = await write(id, { ...(cleaned ? { title: cleaned } : {}), autoTitle: false, updatedAt: now() });
      return updated ? toSession(updated) : null;
    },

    async createSession(title, agent) {
      const trimmed = title === undefined ? undefined : cleanTitle(title);
      const stamp = now();
      const row: StoredSession = { id: randomUUID(), title: trimmed || DEFAULT_TITLE, autoTitle: !trimmed, createdAt: stamp, updatedAt: stamp, revision: 0, ...(agent ? { agent } : {}) };
      await store.insertSession(row);
      publishSession(row);
      return toSession(row);
    },

    async getSession(id) {
      const row = await store.getSession(id);
      if (!row) return null;
      const messages = (await store.listMessages(id)).map((message) => toWire(runs.latest(message)));
      return { session: toSession(row), messages };
    },

    async listGrants(sessionId) {
      if (!(await store.getSession(sessionId))) return null;
      return (await store.listGrants(sessionId)).map(({ server, tool, grantedAt }) => ({ server, tool, grantedAt }));
    },

    async revokeGrant(sessionId, server, tool) {
      if (!(await store.getSession(sessionId))) return null;
      const removed = await store.removeGrant(sessionId, server, tool);
      if (removed) {
        log({ event: "mcp/grant-revoked", sessionId, server, tool });
        await inOrder(sessionId, async () => {
          const row = await store.getSession(sessionId);
          if (row) publishSession(row);
        });
      }
      return removed;
    },

    getMedia(id) {
      return store.getMedia(id);
    },

    async postMessage(sessionId, text) {
      const row = await store.getSession(sessionId);
      if (!row) return { ok: false, reason: "not-found" };
      if (options.agents.forSession(row) === null) return { ok: false, reason: "agent-session" };
      // Once the host stops, nothing is written: a message taken then would start a turn no one stops or waits for.
      if (posts.stopping) return { ok: false, reason: "closing" };
      if (stateOf(sessionId) !== "idle" || posting.has(sessionId)) return { ok: false, reason: "turn-running" };
      const message: StoredMessage = { id: randomUUID(), sessionId, role: "user", createdAt: now(), text };
      // An agent that names its sessions (ACP's session_info_update) may still retitle a chat its first message titled.
      const namedByAgent = row.agent?.kind === "acp-agent";
      // A message with no words to title by (`/echo` alone) leaves the title automatic, for the next one.
      const title = titleFrom(text);
      const titled = row.autoTitle && !COMMAND_WITH_ARGUMENTS.test(text) && title !== DEFAULT_TITLE && (!namedByAgent || row.title === DEFAULT_TITLE);
      // The message goes in last: when either write fails the request fails, and no tab has seen a message the store lacks.
      posting.add(sessionId);
      return posts.hold(inOrder(sessionId, async () => {
        // Stamped when its turn comes, so a stamp queued before it never lands after a newer one.
        const stamp = now();
        let updated: StoredSession | null = null;
        try {
          // The title is taken only if it is still the automatic one it was read as: a rename meanwhile stands.
          const retitled = titled ? await store.patchSession(sessionId, { title, autoTitle: namedByAgent, updatedAt: stamp }, { autoTitle: true, title: row.title }) : null;
          updated = retitled ?? (await store.patchSession(sessionId, { updatedAt: stamp }));
          if (updated) await store.insertMessage(message);
        } catch (error) {
          // The chat's row was written (stamped, perhaps titled from this message) though the message was not: the tabs get it as stored.
          if (updated) publishSession(updated);
          throw error;
        } finally {
          posting.delete(sessionId);
        }
        if (!updated) return { ok: false, reason: "not-found" } as const;
        transcript.publish(message);
        runs.startTurn(updated, options.agents.forSession(updated)!, text);
        publishSession(updated);
        return { ok: true, message: toWire(message) } as const;
      }));
    },

    async callTool(sessionId, call, context) {
      if (!(await store.getSession(sessionId))) return null;
      return runs.callTool(sessionId, call, context);
    },

    async abort(sessionId) {
      if (!(await store.getSession(sessionId))) return null;
      return runs.abort(sessionId);
    },

    async deleteSession(id) {
      const row = await store.getSession(id);
      if (!row) return false;
      await runs.abort(id);
      // After the session's writes already made, so no frame of one follows `session/deleted`.
      const deleted = await inOrder(id, async () => {
        if (!(await store.deleteSession(id))) return false;
        options.broadcast({ type: "session/deleted", sessionId: id });
        forgetDeleted(id);
        return true;
      });
      if (!deleted) return false;
      // A post queued before the delete, while the first abort ran, started a turn on the chat: it is stopped too, so no
      // turn or question is left on a chat that is gone, and no frame of it follows session/deleted.
      await stopDeleted(id);
      return true;
    },

    async deletedElsewhere(id) {
      forgetDeleted(id);
      await stopDeleted(id);
    },

    turnSessions: () => [...new Set([...runs.turnSessions(), ...posting])],

    commitAnswer: (answer) => toolCalls.commitAnswer(answer),

    unsettledRows: () => transcript.unsettled(),

    async refresh(sessionId) {
      const unchanged = () => (lastState.get(sessionId) ?? "idle") === stateOf(sessionId);
      if (unchanged()) return;
      const known = lastRow?.get(sessionId);
      // With nothing of the session's being written, the row it was last published with is the stored one: its new
      // state goes at once, inside the burst that changed it, so the tabs get it in the same write as the question.
      if (known && !inOrder.busy(sessionId)) return publishSession(known);
      await inOrder(sessionId, async () => {
        const row = lastRow?.get(sessionId) ?? (await store.getSession(sessionId));
        // Checked again: another refresh may have published the new state while this one read.
        if (row && !unchanged()) publishSession(row);
      });
    },

    async stop() {
      // The running turns are stopped at once, in the tick the host's close began (their questions' rejections then find
      // them stopped); the posts already taken write their message and start their turn, which the second stop ends.
      const stopped = runs.stop();
      await posts.drain();
      await Promise.all([stopped, runs.stop()]);
      await transcript.close();
    },
  };
}
