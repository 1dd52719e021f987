import { client, methods, RequestError, type CreateElicitationRequest, type CreateElicitationResponse, type JsonRpcId, type RequestPermissionResponse } from "@agentclientprotocol/sdk";
import type { Logger } from "../log";
import { untilAborted } from "./child-io";
import type { SessionEntry } from "./types";

interface OpenRequest {
  sessionId: string;
  /** The session as this process held it when the request came: a session opened again later is another entry. */
  session: SessionEntry;
  controller: AbortController;
}

/** The agent's requests that wait for the human, bounded: each aborts when the agent withdraws it, its turn ends, or the process goes. */
export class OpenRequests {
  private readonly open = new Map<JsonRpcId, OpenRequest>();

  constructor(
    private readonly agent: string,
    private readonly log: Logger,
    private readonly max: number,
  ) {}

  get size(): number {
    return this.open.size;
  }

  /** Registers a request of `session`; null (answer it cancelled) when the host holds too many or the agent already withdrew it. */
  add(session: SessionEntry, sessionId: string, requestId: JsonRpcId, signal: AbortSignal, method: string): AbortController | null {
    if (this.open.size >= this.max) {
      this.log({ event: "acp/too-many-requests", agent: this.agent, method, open: this.open.size });
      return null;
    }
    if (signal.aborted) return null;
    const controller = new AbortController();
    controller.signal.addEventListener("abort", () => session.events.requestCancelled(requestId), { once: true });
    signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
    this.open.set(requestId, { sessionId, session, controller });
    return controller;
  }

  /** Forgets a request that was answered. */
  remove(requestId: JsonRpcId, controller: AbortController) {
    if (this.open.get(requestId)?.controller === controller) this.open.delete(requestId);
  }

  /**
   * Aborts every request a session left open (its turn ended or was stopped, or it was closed); with `session`, only those
   * that came while the process held that entry of it.
   */
  retire(sessionId: string, reason: string, session?: SessionEntry) {
    for (const [id, request] of this.open) {
      if (request.sessionId !== sessionId || (session !== undefined && request.session !== session)) continue;
      this.open.delete(id);
      request.controller.abort(new Error(reason));
    }
  }

  /** Aborts every request (the process went). */
  abortAll(reason: Error) {
    for (const request of this.open.values()) request.controller.abort(reason);
    this.open.clear();
  }
}

export interface ClientAppContext {
  agent: string;
  log: Logger;
  sessions: ReadonlyMap<string, SessionEntry>;
  requests: OpenRequests;
  /** A request was answered: the idle clock starts again. */
  touched(): void;
}

/**
 * The SDK client app of one agent process: session updates, permission requests and forms go to the events of the session they
 * name; `$/cancel_request` aborts the request (the SDK's signal); unknown requests are answered -32601 and logged, never fatal.
 */
export function createClientApp(context: ClientAppContext) {
  const { agent, log, sessions, requests } = context;
  const open = (sessionId: string, requestId: JsonRpcId, signal: AbortSignal, method: string) => {
    const session = sessions.get(sessionId);
    if (!session) {
      log({ event: "acp/request-unknown-session", agent, method });
      return null;
    }
    const controller = requests.add(session, sessionId, requestId, signal, method);
    return controller ? { session, controller } : null;
  };
  const close = (requestId: JsonRpcId, controller: AbortController) => {
    requests.remove(requestId, controller);
    context.touched();
  };
  return client({ name: "parley" })
    .onNotification(methods.client.session.update, ({ params }) => {
      const session = sessions.get(params.sessionId);
      if (!session) {
        log({ event: "acp/update-unknown-session", agent, kind: params.update.sessionUpdate });
        return;
      }
      if (params.update.sessionUpdate === "current_mode_update") session.mode = params.update.currentModeId;
      session.events.update(params.update);
    })
    .onRequest(methods.client.session.requestPermission, async ({ params, requestId, signal }) => {
      const cancelled: RequestPermissionResponse = { outcome: { outcome: "cancelled" } };
      const opened = open(params.sessionId, requestId, signal, "session/request_permission");
      if (!opened) return cancelled;
      const { session, controller } = opened;
      try {
        return await untilAborted(session.events.askPermission({ requestId, sessionId: params.sessionId, request: params, signal: controller.signal }), controller.signal, cancelled);
      } finally {
        close(requestId, controller);
      }
    })
    .onRequest(methods.client.elicitation.create, async ({ params, requestId, signal }) => {
      const sessionId = "sessionId" in params && typeof params.sessionId === "string" ? params.sessionId : null;
      if (params.mode !== "form" || sessionId === null) {
        log({ event: "acp/elicitation-declined", agent, reason: params.mode !== "form" ? `mode ${String(params.mode).slice(0, 32)}` : "not tied to a session" });
        return { action: "decline" };
      }
      const opened = open(sessionId, requestId, signal, "elicitation/create");
      if (!opened) return { action: "cancel" };
      const { session, controller } = opened;
      try {
        const request = params as Extract<CreateElicitationRequest, { mode: "form" }>;
        return await untilAborted(session.events.elicit({ requestId, sessionId, request, signal: controller.signal }), controller.signal, { action: "cancel" } as CreateElicitationResponse);
      } finally {
        close(requestId, controller);
      }
    })
    .onNotification(methods.client.elicitation.complete, () => undefined)
    .onRequest("*", ({ method }) => {
      log({ event: "acp/unknown-request", agent, method: method.slice(0, 100) });
      throw RequestError.methodNotFound(method);
    })
    .onNotification("*", ({ method }) => {
      if (method === methods.protocol.cancelRequest) return;
      log({ event: "acp/unknown-notification", agent, method: method.slice(0, 100) });
    });
}
