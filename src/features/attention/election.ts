import { own } from "../../store/own";

/** One tab's bid to show the desktop notification for a request. */
export interface Claim {
  rpcId: string;
  tabId: string;
  /** The tab was visible when the request arrived: the user already sees it, so nobody notifies. */
  visible: boolean;
}

/** What tabs tell each other over the `BroadcastChannel`. */
export type ElectionMessage = { type: "claim"; claim: Claim } | { type: "notified"; rpcId: string; tabId: string };

/** What one tab has heard so far. */
export interface ElectionState {
  claims: Readonly<Record<string, readonly Claim[]>>;
  notified: ReadonlySet<string>;
}

export type Decision = "notify" | "stay-quiet";

export function createElectionState(): ElectionState {
  return { claims: {}, notified: new Set() };
}

/** Records a message from any tab, this one included; a repeated claim is kept once. */
export function receive(state: ElectionState, message: ElectionMessage): ElectionState {
  switch (message.type) {
    case "claim": {
      const { claim } = message;
      const known = own(state.claims, claim.rpcId) ?? [];
      if (known.some((other) => other.tabId === claim.tabId)) return state;
      return { ...state, claims: { ...state.claims, [claim.rpcId]: [...known, claim] } };
    }
    case "notified": {
      if (state.notified.has(message.rpcId)) return state;
      const notified = new Set(state.notified);
      notified.add(message.rpcId);
      return { ...state, notified };
    }
    default:
      return message satisfies never;
  }
}

/**
 * Decides, once the claim window has closed, whether this tab shows the notification:
 * never when one was already shown or any tab was visible; otherwise only the tab with
 * the smallest id among the claimants, so every tab that heard the same claims agrees.
 */
export function decide(state: ElectionState, rpcId: string, tabId: string): Decision {
  if (state.notified.has(rpcId)) return "stay-quiet";
  const claims = own(state.claims, rpcId) ?? [];
  if (!claims.some((claim) => claim.tabId === tabId)) return "stay-quiet";
  if (claims.some((claim) => claim.visible)) return "stay-quiet";
  const winner = claims.reduce((best, claim) => (claim.tabId < best.tabId ? claim : best));
  return winner.tabId === tabId ? "notify" : "stay-quiet";
}

/** Drops what is known about a request that left, so the state does not grow forever. */
export function forget(state: ElectionState, rpcId: string): ElectionState {
  if (!Object.hasOwn(state.claims, rpcId) && !state.notified.has(rpcId)) return state;
  const { [rpcId]: _dropped, ...claims } = state.claims;
  const notified = new Set(state.notified);
  notified.delete(rpcId);
  return { claims, notified };
}
