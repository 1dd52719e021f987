import type { PendingRequest } from "../../protocol/schemas";
import { createElectionState, decide, forget, receive, type ElectionMessage, type ElectionState } from "./election";

/** How long tabs collect each other's claims before deciding who notifies. */
export const CLAIM_WINDOW_MS = 300;

export const CHANNEL_NAME = "parley.attention";

/** Runs one election per request across the app's open tabs. */
export interface Notifier {
  /** Enters this tab for the request's notification; `visible` says the user can already see it. */
  offer(request: PendingRequest, visible: boolean): void;
  /** The request left: stop any election still running for it. */
  withdraw(rpcId: string): void;
  dispose(): void;
}

interface NotifierOptions {
  tabId: string;
  /** Called in the single elected tab. */
  show: (request: PendingRequest) => void;
  channel?: Pick<BroadcastChannel, "postMessage" | "close" | "addEventListener" | "removeEventListener"> | null;
  windowMs?: number;
}

function isElectionMessage(value: unknown): value is ElectionMessage {
  if (typeof value !== "object" || value === null) return false;
  const { type } = value as { type?: unknown };
  return type === "claim" || type === "notified";
}

export function createNotifier({ tabId, show, channel = openChannel(), windowMs = CLAIM_WINDOW_MS }: NotifierOptions): Notifier {
  let state: ElectionState = createElectionState();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();

  const hear = (message: ElectionMessage) => {
    state = receive(state, message);
  };
  const say = (message: ElectionMessage) => {
    hear(message);
    channel?.postMessage(message);
  };
  const onMessage = (event: MessageEvent) => {
    if (isElectionMessage(event.data)) hear(event.data);
  };
  channel?.addEventListener("message", onMessage);

  return {
    offer(request, visible) {
      if (timers.has(request.rpcId)) return;
      say({ type: "claim", claim: { rpcId: request.rpcId, tabId, visible } });
      const timer = setTimeout(() => {
        timers.delete(request.rpcId);
        if (decide(state, request.rpcId, tabId) !== "notify") return;
        say({ type: "notified", rpcId: request.rpcId, tabId });
        show(request);
      }, windowMs);
      timers.set(request.rpcId, timer);
    },
    withdraw(rpcId) {
      clearTimeout(timers.get(rpcId));
      timers.delete(rpcId);
      state = forget(state, rpcId);
    },
    dispose() {
      timers.forEach((timer) => clearTimeout(timer));
      timers.clear();
      channel?.removeEventListener("message", onMessage);
      channel?.close();
    },
  };
}

function openChannel(): BroadcastChannel | null {
  return typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(CHANNEL_NAME);
}
