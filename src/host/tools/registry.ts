import { z } from "zod";
import { decodeToolErrorCode, encodeToolError } from "../../protocol/errors";
import type { GivenAnswer } from "../pending/pending-table";
import type { AnswerItem, QuestionOrigin, ToolCall, ToolError, ToolErrorCode, ToolRowOutcome } from "../../protocol/schemas";
import { ASK_CANCELLED_ERROR } from "../../protocol/tool-messages";
import type { ToolSpec } from "../models/types";
import { describeIssues } from "../pending/user-interaction";

export interface ToolContext {
  signal: AbortSignal;
  sessionId: string;
  /** Passed on to the seam: told the rpcId of the question the call waits on. */
  onRequested?(rpcId: string): void;
  /** Passed on to the seam: who asks, when it is not the session's own agent. */
  origin?: QuestionOrigin;
  /** Passed on to the seam: the transcript row of this call, so an accepted answer is written into it before it is confirmed. */
  messageId?: string;
  /** Changes the call's row data while it runs (an MCP call's approval state): written and shown to every tab at once. */
  update?(patch: ToolRowPatch): Promise<void>;
}

/** Row data a tool adds to its call beyond name, arguments and status: an MCP server's call names its server, tool and approval. */
export type ToolRowPatch = Pick<ToolCall, "mcp">;

/**
 * Where tools come from: Parley's own (a registry), each MCP server's, later others. The agent loop reaches every tool through one
 * door (`createToolDoor`), never by the shape of a name.
 */
export interface ToolSource {
  list(): ToolSpec[];
  /** Whether this source answers calls of `name` (also one it cannot run now, to say why). */
  has(name: string): boolean;
  /** The row data a call of `name` starts with. */
  describe?(name: string): ToolRowPatch;
  execute(name: string, args: unknown, context: ToolContext): Promise<ToolOutcome>;
  /** What the human's `given` answer to a question the running call `tool` asked does to its row; null when nothing until the call returns. */
  settle?(tool: ToolCall, given: GivenAnswer): AnswerEffect | null;
}

/**
 * What an accepted answer does to the row of the call that asked, written as it is accepted (docs/protocol.md,
 * respond-durable): row data it gives (an approval's decision) and, when the answer is the call's whole result, the outcome.
 */
export interface AnswerEffect {
  patch?: ToolRowPatch;
  outcome?: ToolOutcome;
}

/** Every tool the agent may call, from every source, behind one door. */
export interface ToolDoor {
  list(): ToolSpec[];
  describe(name: string): ToolRowPatch;
  execute(name: string, args: unknown, context: ToolContext): Promise<ToolOutcome>;
  settle(tool: ToolCall, given: GivenAnswer): AnswerEffect | null;
}

/** One door over `sources`, asked in order; a name no source has is `UNKNOWN_TOOL`. */
export function createToolDoor(sources: readonly ToolSource[]): ToolDoor {
  const owner = (name: string) => sources.find((source) => source.has(name));
  return {
    list: () => sources.flatMap((source) => source.list()),
    describe: (name) => owner(name)?.describe?.(name) ?? {},
    async execute(name, args, context) {
      const source = owner(name);
      if (!source) return errorOutcome({ name: "ToolError", code: "UNKNOWN_TOOL", message: `no tool is named "${name}"` });
      return source.execute(name, args, context);
    },
    settle: (tool, given) => owner(tool.name)?.settle?.(tool, given) ?? null,
  };
}

/** What a tool made of its arguments and the human's answers: the result the model reads and the transcript's data. */
export interface ToolResult {
  text: string;
  value?: unknown;
  outcome?: ToolRowOutcome;
}

/** A tool: its model-facing name, description and argument schema, and what it does. */
export interface ToolDefinition<Args> {
  name: string;
  description: string;
  args: z.ZodType<Args>;
  run(args: Args, context: ToolContext): Promise<ToolResult>;
  /**
   * For a tool whose whole work is one question to the human: its result for the answers, without asking. The host writes it
   * when it accepts an answer (so it survives a crash before the tool returns) and when it adopts a dead host's answered question.
   */
  answered?(args: Args, answers: AnswerItem[]): ToolResult;
}

/** What one tool call produced: `text` is exactly what the model sees. */
export interface ToolOutcome {
  isError: boolean;
  text: string;
  value?: unknown;
  error?: ToolError;
  /** The transcript's data for a finished call (docs/protocol.md, tool-outcome). */
  outcome?: ToolRowOutcome;
}

/** A failure raised by a tool itself (as opposed to one it passes through from a seam). */
export class ToolCallError extends Error {
  override readonly name = "ToolError";
  constructor(
    readonly code: ToolErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Parley's own tools: served to its agent and, as they are, to outside agents through `/mcp`. */
export interface ToolRegistry extends ToolSource {
  register<Args>(tool: ToolDefinition<Args>): void;
  settle(tool: ToolCall, given: GivenAnswer): AnswerEffect | null;
}

export function createToolRegistry(): ToolRegistry {
  const tools = new Map<string, ToolDefinition<unknown>>();

  return {
    register(tool) {
      if (tools.has(tool.name)) throw new Error(`tool "${tool.name}" is already registered`);
      tools.set(tool.name, tool as ToolDefinition<unknown>);
    },

    list() {
      return [...tools.values()].map((tool) => ({ name: tool.name, description: tool.description, parameters: toolParameters(tool.args) }));
    },

    has: (name) => tools.has(name),

    async execute(name, args, context) {
      const tool = tools.get(name);
      if (!tool) return errorOutcome({ name: "ToolError", code: "UNKNOWN_TOOL", message: `no tool is named "${name}"` });
      const parsed = tool.args.safeParse(args);
      if (!parsed.success) {
        return errorOutcome({ name: "ToolError", code: "INVALID_ARGS", message: `invalid arguments: ${describeIssues(parsed.error.issues)}` });
      }
      try {
        return resultOutcome(await tool.run(parsed.data, context));
      } catch (error) {
        return errorOutcome(toToolError(error));
      }
    },

    settle(call, given) {
      const tool = tools.get(call.name);
      const parsed = tool?.answered ? tool.args.safeParse(call.args) : null;
      if (!tool?.answered || !parsed?.success) return null;
      return { outcome: given === "cancelled" ? errorOutcome(ASK_CANCELLED_ERROR) : resultOutcome(tool.answered(parsed.data, given.answers)) };
    },
  };
}

function resultOutcome(result: ToolResult): ToolOutcome {
  return { isError: false, text: result.text, ...(result.value === undefined ? {} : { value: result.value }), ...(result.outcome ? { outcome: result.outcome } : {}) };
}

/** The JSON Schema the model sees, generated from the zod definition that validates the arguments. */
export function toolParameters(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...parameters } = z.toJSONSchema(schema) as Record<string, unknown>;
  return parameters;
}

export function toToolError(error: unknown): ToolError {
  if (error instanceof Error) {
    const { code } = error as Error & { code?: unknown };
    return { name: error.name, code: typeof code === "string" ? code : "TOOL_FAILED", message: error.message };
  }
  return { name: "Error", code: "TOOL_FAILED", message: String(error) };
}

export function errorOutcome(error: ToolError): ToolOutcome {
  return { isError: true, text: formatToolErrorText(error), error };
}

/** The tool-error text format's encoder and decoder live in the protocol (docs/protocol.md, tool-error text); these are their names here. */
export const formatToolErrorText = encodeToolError;
export const toolErrorCode = decodeToolErrorCode;
