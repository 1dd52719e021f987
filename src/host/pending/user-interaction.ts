import { approvalQuestions, readApprovalAnswer, type ApprovalDecision } from "../../protocol/approval";
import { ABORTED_MESSAGE, CANCELLED_MESSAGE } from "../../protocol/tool-messages";
import type { AnswerRule } from "./answer-rule";
import { Questions, type AnswerItem, type QuestionItem, type QuestionOrigin, type ToolApproval, type ToolErrorCode } from "../../protocol/schemas";

/** A failure of the user-interaction seam; `code` is machine-routable and survives tool execution. */
export class UserInteractionError extends Error {
  override readonly name = "UserInteractionError";
  constructor(
    readonly code: ToolErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export { ABORTED_MESSAGE, CANCELLED_MESSAGE };
export const DISPOSED_MESSAGE = "web user-interaction provider was disposed";

export interface AskRequest {
  questions: QuestionItem[];
  sessionId?: string;
  signal?: AbortSignal;
  /** Told the pending question's rpcId once the provider holds it (an MCP wait ticket names it). */
  onRequested?(rpcId: string): void;
  /** Who asks, when it is not the session's own agent; sent on the question/requested frame. */
  origin?: QuestionOrigin;
  /** Set when the request asks to allow a tool call; sent on the question/requested frame (docs/protocol.md, approval-request). */
  approval?: ToolApproval;
  /** A rule beyond the answer rules (an elicitation's schema): an answer it refuses is refused as bad-response. */
  rule?: AnswerRule;
  /** The transcript row of the tool call that asks: an accepted answer is written into it before it is confirmed (docs/protocol.md, respond-durable). */
  messageId?: string;
}

export interface AskResult {
  answers: AnswerItem[];
}

/** Whatever collects the human's answers: the Web pending table in the app, fakes in tests. */
export interface UserInteractionProvider {
  ask(request: AskRequest): Promise<AskResult>;
}

export interface UserInteraction {
  /** Asks the human through the provider after every check of docs/architecture.md (The host: the seam checks), in order. */
  ask(request: AskRequest): Promise<AskResult>;
}

/** The seam every asker goes through (the agent's tools, `/mcp`, MCP servers' approvals and forms), with its one provider. */
export function createUserInteraction(provider: UserInteractionProvider): UserInteraction {
  return {
    async ask(request) {
      if (request.signal?.aborted) throw new UserInteractionError("ASK_ABORTED", ABORTED_MESSAGE);
      if (!Array.isArray(request.questions) || request.questions.length === 0) {
        throw new UserInteractionError("EMPTY_QUESTIONS", "ask_user_question requires at least one question");
      }
      const parsed = Questions.safeParse(request.questions);
      if (!parsed.success) {
        throw new UserInteractionError("INVALID_QUESTIONS", `invalid questions: ${describeIssues(parsed.error.issues)}`);
      }
      const intentProblem = findIntentProblem(parsed.data);
      if (intentProblem) throw new UserInteractionError("BAD_INTENT", intentProblem);
      return provider.ask({ ...request, questions: parsed.data });
    },
  };
}

export interface ApprovalRequest {
  sessionId: string;
  server: string;
  tool: string;
  /** The call's full arguments as JSON text, shown to the human untruncated. */
  arguments: string;
  /** The server marks the tool destructive (`annotations.destructiveHint`): the card makes Deny its default. */
  destructive?: boolean;
  signal?: AbortSignal;
  /** The call's transcript row, where the decision is written as it is accepted (docs/protocol.md, respond-durable). */
  messageId?: string;
}

/**
 * Asks the human to allow one MCP tool call, as a pending request like any question (origin: the
 * server); rejects with the seam's errors (ASK_CANCELLED, ASK_ABORTED, …) when it is never answered.
 */
export async function askApproval(interaction: Pick<UserInteraction, "ask">, request: ApprovalRequest): Promise<ApprovalDecision> {
  const approval: ToolApproval = { server: request.server, tool: request.tool, arguments: request.arguments, ...(request.destructive ? { destructive: true } : {}) };
  const { answers } = await interaction.ask({
    questions: approvalQuestions(approval),
    sessionId: request.sessionId,
    origin: { kind: "mcp-server", name: request.server },
    approval,
    ...(request.signal ? { signal: request.signal } : {}),
    ...(request.messageId ? { messageId: request.messageId } : {}),
  });
  return readApprovalAnswer(answers);
}

function findIntentProblem(questions: readonly QuestionItem[]): string | null {
  for (const item of questions) {
    if (!item.intent) continue;
    const labels = (item.options ?? []).map((option) => option.label);
    if (!labels.includes(item.intent.approve)) {
      return `intent of question "${item.id}" approves "${item.intent.approve}", which is not one of its options`;
    }
    if (item.detail === undefined || item.detail.trim() === "") {
      return `question "${item.id}" has a ${item.intent.kind} intent but no detail`;
    }
  }
  return null;
}

/** One line naming each violation by its path, e.g. `questions.0.id: Too small…`. */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[], prefix: readonly PropertyKey[] = []): string {
  return issues
    .map((issue) => {
      const path = [...prefix, ...issue.path].map(String).join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}
