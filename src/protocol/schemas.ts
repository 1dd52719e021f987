import { z } from "zod/mini";

/** The wire protocol version both ends speak. */
export const PROTOCOL_VERSION = 2;

/** Limits of docs/protocol.md, shared by the host, the client and the tool. */
export const LIMITS = {
  labelChars: 200,
  descriptionChars: 1000,
  idChars: 64,
  questionChars: 4000,
  headerChars: 100,
  detailChars: 20000,
  optionsPerQuestion: 50,
  questionsPerBatch: 20,
  messageChars: 20000,
  httpBodyBytes: 256 * 1024,
  socketPayloadBytes: 64 * 1024,
} as const;

const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));
const upTo = (max: number) => z.string().check(z.maxLength(max));

/** One selectable answer offered to the user; the label is also the value sent back. */
export const QuestionOption = z.strictObject({
  label: text(1, LIMITS.labelChars),
  description: z.optional(upTo(LIMITS.descriptionChars)),
});
export type QuestionOption = z.infer<typeof QuestionOption>;

/** A caller-declared presentation intent; it never changes the answer encoding. */
export const QuestionIntent = z.strictObject({
  kind: z.literal("plan-review"),
  approve: z.string(),
});
export type QuestionIntent = z.infer<typeof QuestionIntent>;

/** The kinds of free-text answer a question can ask for (docs/protocol.md, rule answer-input). */
export const AnswerInputKind = z.enum(["text", "email", "url", "date", "date-time", "number", "integer"]);
export type AnswerInputKind = z.infer<typeof AnswerInputKind>;

/** What a question's free-text answer must be: its kind and bounds (lengths for text kinds, values for numbers). */
export const AnswerInput = z.strictObject({
  kind: AnswerInputKind,
  minLength: z.optional(z.number()),
  maxLength: z.optional(z.number()),
  minimum: z.optional(z.number()),
  maximum: z.optional(z.number()),
});
export type AnswerInput = z.infer<typeof AnswerInput>;

/** Answers shown pre-filled (and marked as such) when the question first opens. */
export const AnswerDefaults = z.strictObject({
  selected: z.optional(z.array(z.string())),
  custom: z.optional(z.string()),
});
export type AnswerDefaults = z.infer<typeof AnswerDefaults>;

/**
 * One question of a request. The fields after `intent` are protocol 2 and optional; absent, a question
 * is what protocol 1 asked: free text allowed as plain text, skippable, any number of labels when multi-select.
 */
export const QuestionItem = z
  .strictObject({
    id: text(1, LIMITS.idChars),
    question: text(1, LIMITS.questionChars),
    header: z.optional(upTo(LIMITS.headerChars)),
    detail: z.optional(upTo(LIMITS.detailChars)),
    options: z.optional(z.array(QuestionOption).check(z.maxLength(LIMITS.optionsPerQuestion))),
    multiSelect: z.optional(z.boolean()),
    intent: z.optional(QuestionIntent),
    /** Whether a free-text answer is offered; absent means true. */
    freeText: z.optional(z.boolean()),
    /** What the free-text answer must be; absent means plain text. */
    input: z.optional(AnswerInput),
    /** A required question cannot be skipped; absent means false. */
    required: z.optional(z.boolean()),
    /** Bounds on how many labels a multi-select answer holds. */
    minSelected: z.optional(z.number()),
    maxSelected: z.optional(z.number()),
    defaults: z.optional(AnswerDefaults),
  })
  .check(z.superRefine((item, ctx) => {
    const seen = new Set<string>();
    item.options?.forEach((option, index) => {
      if (seen.has(option.label)) {
        ctx.addIssue({
          code: "custom",
          path: ["options", index, "label"],
          message: `option label "${option.label}" appears twice in question "${item.id}"`,
        });
      }
      seen.add(option.label);
    });
  }));
export type QuestionItem = z.infer<typeof QuestionItem>;

/** A batch of 1..20 questions with unique ids. */
export const Questions = z
  .array(QuestionItem)
  .check(z.minLength(1), z.maxLength(LIMITS.questionsPerBatch), z.superRefine((items, ctx) => {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      if (seen.has(item.id)) {
        ctx.addIssue({ code: "custom", path: [index, "id"], message: `question id "${item.id}" appears twice` });
      }
      seen.add(item.id);
    });
  }));
export type Questions = z.infer<typeof Questions>;

/** The answer to one question: chosen labels and, optionally, free text. */
export const AnswerItem = z.object({
  id: z.string(),
  selected: z.array(z.string()),
  custom: z.optional(z.string()),
});
export type AnswerItem = z.infer<typeof AnswerItem>;

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
});
export type Session = z.infer<typeof Session>;

export const ToolStatus = z.enum(["running", "ok", "error", "stopped"]);
export type ToolStatus = z.infer<typeof ToolStatus>;

/** The tools Parley serves: one name each, shared by the host, the MCP front door and the transcript. */
export const TOOL_NAMES = {
  askUserQuestion: "ask_user_question",
  presentPlan: "present_plan",
  askUserQuestionWait: "ask_user_question_wait",
} as const;

/** Every code a tool error can carry (docs/protocol.md, Tools the agent calls); the transcript reads outcomes from these, never from text. */
export const ToolErrorCode = z.enum([
  "INVALID_ARGS",
  "ASK_CANCELLED",
  "ASK_ABORTED",
  "ASK_MISSING_SESSION",
  "EMPTY_QUESTIONS",
  "INVALID_QUESTIONS",
  "BAD_INTENT",
  "TOO_MANY_PENDING",
  "UNKNOWN_TOOL",
  "UNKNOWN_TICKET",
  "TOOL_FAILED",
  "TOOL_DENIED",
  "MCP_TOOL_ERROR",
  "MCP_SERVER_UNAVAILABLE",
  "HOST_UNREACHABLE",
  "STORAGE_FULL",
  "STORAGE_READONLY",
  "STORAGE_BUSY",
  "STORAGE_FAILED",
  "INTERNAL",
]);
export type ToolErrorCode = z.infer<typeof ToolErrorCode>;

/** A structured tool error as the model and the transcript see it; `code` is one of ToolErrorCode for Parley's own tools. */
export const ToolError = z.object({ name: z.string(), code: z.string(), message: z.string() });
export type ToolError = z.infer<typeof ToolError>;

/** One piece of an MCP tool's result as the transcript shows it: text, an image the host stores (`GET /api/media/:id`), or any other content as a labelled block (docs/protocol.md, mcp-tool-row). */
export const ToolResultBlock = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({ type: z.literal("image"), mediaId: z.string(), mimeType: z.string() }),
  z.object({ type: z.literal("other"), label: z.string(), text: z.string() }),
]);
export type ToolResultBlock = z.infer<typeof ToolResultBlock>;

/** Why an MCP call ran or did not: asked and what the human said, or why it did not need asking. */
export const ToolApprovalState = z.enum(["asking", "allowed-once", "allowed-for-chat", "denied", "read-only", "auto-approved", "granted"]);
export type ToolApprovalState = z.infer<typeof ToolApprovalState>;

/** Set on the tool row of a call to an MCP server's tool (`mcp__<server>__<tool>`). */
export const McpToolCall = z.object({ server: z.string(), tool: z.string(), approval: z.optional(ToolApprovalState), reason: z.optional(z.string()) });
export type McpToolCall = z.infer<typeof McpToolCall>;

/** What a finished call of one of Parley's tools came to, as data for the transcript (docs/protocol.md, tool-outcome). */
export const ToolRowOutcome = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("answered"), answers: z.array(AnswerItem) }),
  z.object({ kind: z.literal("approved"), note: z.optional(z.string()) }),
  z.object({ kind: z.literal("revise"), feedback: z.string() }),
  /** An MCP tool's result content (also when the server flagged it isError). */
  z.object({ kind: z.literal("mcp-result"), content: z.array(ToolResultBlock) }),
]);
export type ToolRowOutcome = z.infer<typeof ToolRowOutcome>;

/** Where an ACP agent's tool call acts: an absolute path, and a 1-based line when it knows one. */
export const AcpToolLocation = z.object({ path: z.string(), line: z.optional(z.number()) });
export type AcpToolLocation = z.infer<typeof AcpToolLocation>;
/** One piece of an ACP tool call's content as shown: text (terminal output may hold ANSI colours), a diff, or a label for anything else; `truncated` when a text was cut to its bound. */
export const AcpToolContent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string(), truncated: z.optional(z.boolean()) }),
  z.object({ type: z.literal("diff"), path: z.string(), oldText: z.optional(z.string()), newText: z.string(), truncated: z.optional(z.boolean()) }),
  z.object({ type: z.literal("other"), label: z.string() }),
]);
export type AcpToolContent = z.infer<typeof AcpToolContent>;
/** The tool call an ACP agent asks permission for: its title, kind, locations and content. */
export const AcpToolCallData = z.object({
  toolCallId: z.string(),
  title: z.string(),
  kind: z.optional(z.string()),
  locations: z.optional(z.array(AcpToolLocation)),
  content: z.optional(z.array(AcpToolContent)),
});
export type AcpToolCallData = z.infer<typeof AcpToolCallData>;
/** One step of an ACP agent's plan. */
export const AcpPlanEntry = z.object({ content: z.string(), priority: z.optional(z.string()), status: z.string() });
export type AcpPlanEntry = z.infer<typeof AcpPlanEntry>;
/** A `/` command an ACP agent offers; `hint` says what input it takes. */
export const AcpCommand = z.object({ name: z.string(), description: z.optional(z.string()), hint: z.optional(z.string()) });
export type AcpCommand = z.infer<typeof AcpCommand>;
/** A mode an ACP agent offers for a session. */
export const AcpMode = z.object({ id: z.string(), name: z.string(), description: z.optional(z.string()) });
export type AcpMode = z.infer<typeof AcpMode>;
/**
 * What an ACP agent streamed, as a row's data (docs/protocol.md, acp-rows): a tool call with its content, a thought, the plan
 * (updated in place), or the chat's agent session (its state, workspace, modes, `/` commands and usage, updated in place).
 */
export const AcpRowData = z.discriminatedUnion("type", [
  z.object({ type: z.literal("tool"), call: AcpToolCallData, status: z.string() }),
  z.object({ type: z.literal("thought"), text: z.string() }),
  z.object({ type: z.literal("plan"), entries: z.array(AcpPlanEntry) }),
  z.object({
    type: z.literal("session"),
    agent: z.string(),
    title: z.string(),
    cwd: z.string(),
    state: z.enum(["starting", "ready", "failed"]),
    acpSessionId: z.optional(z.string()),
    /** Set when the agent was started again for this chat: `restored` with its memory (session/load), `memory-lost` in a fresh session. */
    resumed: z.optional(z.enum(["restored", "memory-lost"])),
    error: z.optional(z.string()),
    mode: z.optional(z.string()),
    modes: z.optional(z.array(AcpMode)),
    commands: z.optional(z.array(AcpCommand)),
    usage: z.optional(z.object({ used: z.number(), size: z.number() })),
  }),
]);
export type AcpRowData = z.infer<typeof AcpRowData>;

/** The tool call carried by a `tool` transcript row. */
export const ToolCall = z.object({
  callId: z.string(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
  status: ToolStatus,
  result: z.optional(z.string()),
  error: z.optional(ToolError),
  /** Set on a finished call of ask_user_question or present_plan: what the human decided, as data. */
  outcome: z.optional(ToolRowOutcome),
  /** Set on a call of an MCP server's tool: which server and tool, and how its approval went. */
  mcp: z.optional(McpToolCall),
  /** Set on a row an ACP agent's session update made (`name` `acp/tool`, `acp/thought`, `acp/plan` or `acp/session`). */
  acp: z.optional(AcpRowData),
});
export type ToolCall = z.infer<typeof ToolCall>;

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
/** The default heartbeat interval; a client treats 2.5 intervals of silence as a dead connection. */
export const HEARTBEAT_INTERVAL_MS = 15_000;
/**
 * Who asks: this chat's own agent, an agent over MCP, a tool's MCP server, or an ACP agent the host runs
 * (`name` its config name, `title` what the panel shows). Optional on the wire; absent means this chat's agent.
 */
export const QuestionOrigin = z.object({ kind: z.enum(["agent", "mcp-client", "mcp-server", "acp-agent"]), name: upTo(200), title: z.optional(upTo(200)) });
export type QuestionOrigin = z.infer<typeof QuestionOrigin>;
/**
 * The tool call an approval request is about; `arguments` is the call's full JSON text, never truncated
 * (an ACP agent's raw input). An ACP permission also carries `choices`, the agent's option names in the
 * order allow-once, allow-always, reject-once, reject-always, which are its question's labels, and
 * `toolCall`, what the call does.
 */
export const ToolApproval = z.object({
  server: upTo(200),
  tool: upTo(200),
  arguments: z.string(),
  choices: z.optional(z.array(upTo(200))),
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
