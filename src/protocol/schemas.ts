import { z } from "zod/mini";
import { AcpToolCallData } from "./acp-data";
import { LIMITS, PROTOCOL_VERSION } from "./limits";
import { text, upTo } from "./questions";
import { Questions, type AnswerItem } from "./questions";
import { ToolCall } from "./tool-call";

// The wire protocol's messages (docs/protocol.md): sessions, transcript rows, the frames of `/api/mux` and the HTTP bodies.
// Its parts live beside it and are re-exported here, so every side imports the protocol from one place.
export { HEARTBEAT_INTERVAL_MS, LIMITS, PROTOCOL_VERSION } from "./limits";
export * from "./questions";
export * from "./acp-data";
export * from "./tool-call";

export const SessionState = z.enum(["idle", "running", "waiting"]);
export type SessionState = z.infer<typeof SessionState>;

/**
 * Who works in a session other than Parley's own agent: an outside MCP client, by the name it gave, or an ACP agent the host
 * runs (`name` in parley.agents.json) in the workspace folder `cwd`.
 */
export const SessionAgent = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("mcp-client"), name: z.string() }),
  z.object({ kind: z.literal("acp-agent"), name: z.string(), cwd: z.string(), mode: z.optional(z.string()) }),
]);
export type SessionAgent = z.infer<typeof SessionAgent>;

/** A chat session as listed in the sidebar; `agent` is set when an outside agent asks through it. */
export const Session = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  state: SessionState,
  agent: z.optional(SessionAgent),
  /** How many times the chat's row was written: of two copies, the higher is the newer (docs/protocol.md, session-revision). */
  revision: z.optional(z.number()),
});
export type Session = z.infer<typeof Session>;

/** One transcript row. */
export const Message = z.object({
  id: z.string(),
  sessionId: z.string(),
  role: z.enum(["user", "assistant", "tool"]),
  createdAt: z.string(),
  text: z.optional(z.string()),
  tool: z.optional(ToolCall),
  /** An assistant reply cut off by a host crash or a failed write (its text is what arrived before), or a tool row whose call the host lost (restart, lease adopted). */
  interrupted: z.optional(z.boolean()),
  /** Set on the row the host writes when a turn fails (the model failed, the store failed, the step limit): what went wrong, as data. */
  failure: z.optional(z.object({ code: z.string() })),
});
export type Message = z.infer<typeof Message>;

export const ResolvedOutcome = z.enum(["answered", "cancelled", "aborted"]);
export type ResolvedOutcome = z.infer<typeof ResolvedOutcome>;

/** Sent first on every socket open; `heartbeatMs` is how often the host sends a heartbeat on this socket (docs/protocol.md, rule mux-heartbeat). */
export const HelloFrame = z.object({ type: z.literal("hello"), protocol: z.literal(PROTOCOL_VERSION), hostId: z.string(), heartbeatMs: z.optional(z.number()) });
/** A sign of life on an otherwise quiet socket; never state, so it is not a DownFrame and never reaches the store. */
export const HeartbeatFrame = z.object({ type: z.literal("heartbeat") });
export type HeartbeatFrame = z.infer<typeof HeartbeatFrame>;
/**
 * Who asks: this chat's own agent, an agent over MCP, a tool's MCP server, or an ACP agent the host runs
 * (`name` its config name, `title` what the panel shows). Optional on the wire; absent means this chat's agent.
 */
export const QuestionOrigin = z.object({ kind: z.enum(["agent", "mcp-client", "mcp-server", "acp-agent"]), name: upTo(200), title: z.optional(upTo(200)) });
export type QuestionOrigin = z.infer<typeof QuestionOrigin>;
/**
 * The tool call an approval request is about; `arguments` is an MCP call's full JSON text, never truncated, or an ACP
 * agent's raw input as JSON, cut past 200,000 characters with a last line that says so. An ACP permission also carries `choices`, the agent's option names in the
 * order allow-once, allow-always, reject-once, reject-always, which are its question's labels, and
 * `toolCall`, what the call does.
 */
export const ToolApproval = z.object({
  server: upTo(200),
  tool: upTo(200),
  arguments: z.string(),
  choices: z.optional(z.array(upTo(200))),
  /** The ACP kind of each of `choices`, in the same order: a client chooses how to show an option by its kind, never its name. */
  choiceKinds: z.optional(z.array(z.enum(["allow_once", "allow_always", "reject_once", "reject_always"]))),
  toolCall: z.optional(AcpToolCallData),
  /** The server's `annotations.destructiveHint` for the tool: the card marks it and makes Deny its default. */
  destructive: z.optional(z.boolean()),
});
export type ToolApproval = z.infer<typeof ToolApproval>;
/** A question is waiting for the human. */
export const QuestionRequestedFrame = z.object({
  type: z.literal("question/requested"),
  rpcId: z.string(),
  sessionId: z.string(),
  questions: Questions,
  createdAt: z.string(),
  origin: z.optional(QuestionOrigin),
  /** Set when the request asks to allow a tool call (docs/protocol.md, rule approval-request); its questions are `approvalQuestions`. */
  approval: z.optional(ToolApproval),
});
/** A question left the pending table. */
export const QuestionResolvedFrame = z.object({
  type: z.literal("question/resolved"),
  rpcId: z.string(),
  sessionId: z.string(),
  outcome: ResolvedOutcome,
  /** Set when the question resolved because the host that held it died and another host took its work over (a cluster). */
  cause: z.optional(z.literal("host-lost")),
});
/** The replay after `hello` is complete. */
export const SyncedFrame = z.object({ type: z.literal("synced") });
/** A session was created or changed. */
export const SessionUpsertedFrame = z.object({ type: z.literal("session/upserted"), session: Session });
/** A session was deleted. */
export const SessionDeletedFrame = z.object({ type: z.literal("session/deleted"), sessionId: z.string() });
/** A transcript message was added or changed. */
export const MessageUpsertedFrame = z.object({ type: z.literal("message/upserted"), message: Message });
/** Text appended to a streaming assistant message. */
export const MessageDeltaFrame = z.object({
  type: z.literal("message/delta"),
  sessionId: z.string(),
  messageId: z.string(),
  text: z.string(),
});

/** Every frame the host sends on `/api/mux`. */
export const DownFrame = z.discriminatedUnion("type", [
  HelloFrame,
  QuestionRequestedFrame,
  QuestionResolvedFrame,
  SyncedFrame,
  SessionUpsertedFrame,
  SessionDeletedFrame,
  MessageUpsertedFrame,
  MessageDeltaFrame,
]);
export type DownFrame = z.infer<typeof DownFrame>;
export type HelloFrame = z.infer<typeof HelloFrame>;
export type QuestionRequestedFrame = z.infer<typeof QuestionRequestedFrame>;
export type QuestionResolvedFrame = z.infer<typeof QuestionResolvedFrame>;

/** A pending request as both ends hold it: the fields of its `question/requested` frame. */
export type PendingRequest = Omit<QuestionRequestedFrame, "type">;

/** The human's answers to a whole request. */
export const AnswerBody = z.object({
  type: z.literal("answer"),
  rpcId: z.string(),
  sessionId: z.string(),
  answers: z.array(z.unknown()),
});
/** The human dismissed the whole request. */
export const CancelBody = z.object({ type: z.literal("cancel"), rpcId: z.string(), sessionId: z.string() });
/** Every body `POST /api/respond` takes. */
export const RespondBody = z.discriminatedUnion("type", [AnswerBody, CancelBody]);
export type RespondBody = z.infer<typeof RespondBody>;
/** What the browser sends for an answer, with its items typed. */
export type AnswerRequest = { type: "answer"; rpcId: string; sessionId: string; answers: AnswerItem[] };
export type CancelRequest = z.infer<typeof CancelBody>;
export type RespondRequest = AnswerRequest | CancelRequest;

export const ReceiptReason = z.enum(["not-pending", "bad-response"]);
export type ReceiptReason = z.infer<typeof ReceiptReason>;
/** The host's receipt for a response. */
export const Receipt = z.union([
  z.object({ accepted: z.literal(true) }),
  z.object({ accepted: z.literal(false), reason: ReceiptReason, detail: z.string() }),
]);
export type Receipt = z.infer<typeof Receipt>;

/** `POST /api/sessions` body. */
export const CreateSessionBody = z.object({
  title: z.optional(upTo(200)),
  /** An ACP agent of `GET /api/agents` to run the chat, in the workspace folder `cwd` (absolute; default the first workspace). */
  agent: z.optional(upTo(32)),
  cwd: z.optional(upTo(4096)),
  /** The agent's mode to start in; default its asking mode (`default`). */
  mode: z.optional(upTo(64)),
});
/** `POST /api/sessions/:id/mode` body: the mode of an ACP agent's chat. */
export const SetModeBody = z.object({ mode: upTo(64) });
/** `POST /api/sessions/:id/messages` body. */
export const PostMessageBody = z.object({ text: text(1, LIMITS.messageChars) });
/** `PATCH /api/sessions/:id`: a new title, 1..200 characters once trimmed. */
export const RenameSessionBody = z.object({ title: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)) });

/** How the host's store is doing: a failing store names its error code and what to do. */
export const StorageHealth = z.union([
  z.object({ state: z.literal("ok") }),
  z.object({ state: z.literal("failing"), code: z.string(), message: z.string() }),
]);
/** One configured MCP server as the host sees it (docs/protocol.md, mcp-health); `error` says why it is failed. */
export const McpServerHealth = z.object({
  name: z.string(),
  state: z.enum(["starting", "ready", "failed", "disabled"]),
  tools: z.number(),
  error: z.optional(z.string()),
});
export type McpServerHealth = z.infer<typeof McpServerHealth>;
/** `GET /api/health`: 200 with `ok: true`, or 503 with `ok: false` while the store fails. */
export const HealthResponse = z.object({
  ok: z.boolean(),
  hostId: z.string(),
  protocol: z.literal(PROTOCOL_VERSION),
  model: z.optional(z.string()),
  storage: z.optional(StorageHealth),
  /** The configured MCP servers; absent when there are none. */
  mcp: z.optional(z.array(McpServerHealth)),
});
/** A page of the session list, newest first; `next` is the cursor of the following page (`?before=`), null on the last. */
export const SessionsResponse = z.object({ sessions: z.array(Session), next: z.optional(z.nullable(z.string())) });
export const SessionResponse = z.object({ session: Session });
/** A tool the human allowed for one chat with `Allow for this chat` (docs/protocol.md, mcp-grants). */
export const Grant = z.object({ server: z.string(), tool: z.string(), grantedAt: z.string() });
export type Grant = z.infer<typeof Grant>;
/** `GET /api/sessions/:id/grants`: the chat's grants, oldest first. */
export const GrantsResponse = z.object({ grants: z.array(Grant) });
export const SessionDetailResponse = z.object({ session: Session, messages: z.array(Message) });
export const MessageResponse = z.object({ message: Message });
export const AbortResponse = z.object({ aborted: z.boolean() });

export const ErrorCode = z.enum([
  "BAD_REQUEST",
  "INVALID_QUERY",
  "NOT_FOUND",
  "TURN_RUNNING",
  "AGENT_SESSION",
  "AGENT_NOT_STARTED",
  "INVALID_BODY",
  "INVALID_JSON",
  "UNSUPPORTED_MEDIA_TYPE",
  "PAYLOAD_TOO_LARGE",
  "FORBIDDEN",
  "UNAUTHORIZED",
  "UPGRADE_REQUIRED",
  "METHOD_NOT_ALLOWED",
  "RATE_LIMITED",
  "STORAGE_FULL",
  "STORAGE_READONLY",
  "STORAGE_BUSY",
  "STORAGE_FAILED",
  "INTERNAL",
]);
export type ErrorCode = z.infer<typeof ErrorCode>;
/** Every error body. */
export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export type ErrorBody = z.infer<typeof ErrorBody>;
