/** The downlink's state as the UI shows it. */
export type ConnectionStatus = "connecting" | "online" | "offline";
import type { Message, PendingRequest, Session } from "../protocol/schemas";

/** A pending request as the browser holds it; `confirmed` is false between a `hello` and its replay. */
export interface PendingEntry {
  request: PendingRequest;
  confirmed: boolean;
}

/** Text handed to a session's composer from elsewhere (a plan review's Chat about it); the composer takes it once. */
export interface ComposerPrefill {
  sessionId: string;
  text: string;
}

/** Why a request left while this tab still held unsent answers for it. */
/** `answered-unconfirmed`: this tab's answer failed to come back while the request was answered: perhaps by that answer. */
export const RETIRE_REASONS = ["answered-elsewhere", "answered-unconfirmed", "dismissed-elsewhere", "stopped", "resolved-away", "host-restarted", "host-lost"] as const;
export type RetireReason = (typeof RETIRE_REASONS)[number];

/** A request that left the store while this tab held drafts for it; kept so the drafts stay readable until dismissed. */
export interface RetiredRequest {
  request: PendingRequest;
  reason: RetireReason;
}

/** Everything the browser knows, changed only by pure functions of this folder. */
export interface SessionData {
  /** The host process the held pending requests came from; null before the first `hello`. */
  hostId: string | null;
  connection: ConnectionStatus;
  /** Whether the host refused this browser for want of a login (token mode without the login link opened). */
  access: "open" | "login-required";
  /** Newest activity (`updatedAt`) first: the pages of the list loaded so far, plus sessions frames brought. */
  sessions: Session[];
  /** The cursor of the list's next page; null when the last page is loaded. */
  sessionsCursor: string | null;
  /** Per session, its messages in transcript order. */
  transcripts: Record<string, Message[]>;
  /** Per session, every pending request in arrival order. */
  pending: Record<string, PendingEntry[]>;
  /** Per session, retired requests in the order they left, until the user dismisses their notice. */
  retired: Record<string, RetiredRequest[]>;
  /** Text waiting to be put into a session's composer, or null. */
  composerPrefill: ComposerPrefill | null;
}

export const initialSessionData: SessionData = {
  hostId: null,
  connection: "connecting",
  access: "open",
  sessions: [],
  sessionsCursor: null,
  transcripts: {},
  pending: {},
  retired: {},
  composerPrefill: null,
};
