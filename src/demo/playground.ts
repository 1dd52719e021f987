import { z } from "zod/mini";
import { approvalQuestions } from "../protocol/approval";
import { elicitationQuestions } from "../protocol/elicitation";
import { Questions, type QuestionItem, type QuestionOrigin, type ToolApproval } from "../protocol/schemas";

/** One problem with pasted input: where (`questions.0.options.1.label`) and what. */
export interface PlaygroundError {
  path: string;
  message: string;
}

/** What the first request of a story is made of: its questions, who asks, and the tool call an approval is about. */
export interface RequestParts {
  questions: QuestionItem[];
  origin?: QuestionOrigin;
  approval?: ToolApproval;
}

export type PlaygroundResult = { kind: "request"; parts: RequestParts } | { kind: "errors"; errors: PlaygroundError[] };

/** What the playground takes: the agent's `ask_user_question` arguments, an MCP server's form elicitation, or a tool call to approve. */
export const PLAYGROUND_INPUTS = ["questions", "form", "approval"] as const;
export type PlaygroundInput = (typeof PLAYGROUND_INPUTS)[number];

export function isPlaygroundInput(value: unknown): value is PlaygroundInput {
  return (PLAYGROUND_INPUTS as readonly unknown[]).includes(value);
}

/** The shape of `ask_user_question`'s arguments, in the model's snake_case; sizes and uniqueness are the protocol's. */
const ModelArgs = z.strictObject({
  questions: z.array(
    z.strictObject({
      id: z.string(),
      question: z.string(),
      header: z.optional(z.string()),
      options: z.optional(z.array(z.strictObject({ label: z.string(), description: z.optional(z.string()) }))),
      multi_select: z.optional(z.boolean()),
    }),
  ),
});

/** An elicitation as an MCP server sends it, with the name of the server that asks. */
const FormArgs = z.strictObject({ server: z.optional(z.string()), message: z.optional(z.string()), requestedSchema: z.unknown() });

/** A tool call to approve; `arguments` is what the tool receives, as JSON text or as the value itself. */
const ApprovalArgs = z.strictObject({
  server: z.string().check(z.minLength(1), z.maxLength(200)),
  tool: z.string().check(z.minLength(1), z.maxLength(200)),
  arguments: z.optional(z.unknown()),
  /** The server marks the tool destructive (`annotations.destructiveHint`): the card makes Deny its default. */
  destructive: z.optional(z.boolean()),
});

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** What the playground starts with for each kind of input: a small valid example to edit. */
export const PLAYGROUND_EXAMPLES: Record<PlaygroundInput, string> = {
  questions: pretty({
    questions: [
      { id: "pkg", header: "Tooling", question: "Which package manager?", options: [{ label: "pnpm (Recommended)" }, { label: "npm" }] },
      { id: "name", question: "What should the project be called?" },
    ],
  }),
  form: pretty({
    server: "signup",
    message: "Finish setting up your account.",
    requestedSchema: {
      type: "object",
      properties: {
        email: { type: "string", format: "email", title: "Work email" },
        seats: { type: "integer", title: "Seats", minimum: 1, maximum: 12, default: 3 },
      },
      required: ["email"],
    },
  }),
  approval: pretty({ server: "github", tool: "create_issue", arguments: { repo: "parley/parley", title: "Found in the playground" } }),
};

/** The example `ask_user_question` arguments. */
export const PLAYGROUND_EXAMPLE = PLAYGROUND_EXAMPLES.questions;

function issuesOf(issues: readonly { path: readonly PropertyKey[]; message: string }[], prefix: readonly PropertyKey[] = []): PlaygroundError[] {
  return issues.map((issue) => ({ path: [...prefix, ...issue.path].map(String).join("."), message: issue.message }));
}

function unique(errors: readonly PlaygroundError[]): PlaygroundError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = `${error.path}\u0000${error.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The model's question as the panel reads it: `multi_select` becomes `multiSelect`. */
function fromModel(item: unknown): unknown {
  if (!isRecord(item) || !Object.hasOwn(item, "multi_select")) return item;
  const { multi_select, ...rest } = item;
  return { ...rest, multiSelect: multi_select };
}

/** Ids used twice, found even when another question is broken (the protocol's own check then does not run). */
function duplicateIds(items: readonly unknown[]): PlaygroundError[] {
  const seen = new Set<string>();
  const errors: PlaygroundError[] = [];
  items.forEach((item, index) => {
    const id = isRecord(item) && typeof item.id === "string" ? item.id : null;
    if (id === null) return;
    if (seen.has(id)) errors.push({ path: `questions.${index}.id`, message: `question id "${id}" appears twice` });
    seen.add(id);
  });
  return errors;
}

function readQuestions(value: unknown): PlaygroundResult {
  const shape = ModelArgs.safeParse(value);
  const items = isRecord(value) && Array.isArray(value.questions) ? value.questions.map(fromModel) : null;
  // The protocol's limits are checked even when the shape is wrong, so every problem shows at once.
  const limits = items === null ? null : Questions.safeParse(items);
  const errors = unique([
    ...(shape.success ? [] : issuesOf(shape.error.issues)),
    ...(limits && !limits.success ? issuesOf(limits.error.issues, ["questions"]) : []),
    ...duplicateIds(items ?? []),
  ]);
  if (errors.length > 0 || !limits?.success) return { kind: "errors", errors };
  return { kind: "request", parts: { questions: limits.data } };
}

/** The reason elicitationQuestions gives, without the property name the path already carries. */
function reasonOf(reason: string, name: string): string {
  const prefix = `property "${name}"`;
  if (!reason.startsWith(prefix)) return reason;
  return reason.slice(prefix.length).replace(/^: /, "").replace(/^ /, "") || reason;
}

/** Every problem of the input's shape, then every property's with its path, then the schema's own; else the mapped questions. */
function readForm(value: unknown): PlaygroundResult {
  const shape = FormArgs.safeParse(value);
  const errors: PlaygroundError[] = shape.success ? [] : issuesOf(shape.error.issues);
  // The schema is read even when the rest of the input is wrong, so every problem shows at once.
  const requestedSchema = isRecord(value) ? value.requestedSchema : undefined;
  if (isRecord(requestedSchema) && isRecord(requestedSchema.properties)) {
    const required = Array.isArray(requestedSchema.required) ? requestedSchema.required : [];
    const broken = new Set<string>();
    for (const [name, property] of Object.entries(requestedSchema.properties)) {
      const alone = elicitationQuestions({ type: "object", properties: { [name]: property }, ...(required.includes(name) ? { required: [name] } : {}) });
      if (!alone.ok) {
        broken.add(name);
        errors.push({ path: `requestedSchema.properties.${name}`, message: reasonOf(alone.reason, name) });
      }
    }
    const kept = Object.fromEntries(Object.entries(requestedSchema.properties).filter(([name]) => !broken.has(name)));
    const rest = elicitationQuestions({
      ...requestedSchema,
      properties: Object.keys(kept).length > 0 ? kept : { placeholder: { type: "string" } },
      ...(Array.isArray(requestedSchema.required) ? { required: requestedSchema.required.filter((name) => !broken.has(String(name))) } : {}),
    });
    if (!rest.ok) errors.push({ path: "requestedSchema", message: rest.reason });
  }
  if (!shape.success || errors.length > 0) return { kind: "errors", errors: unique(errors) };
  const { server = "demo-server", message } = shape.data;
  const mapped = elicitationQuestions(requestedSchema, message);
  if (!mapped.ok) return { kind: "errors", errors: [{ path: "requestedSchema", message: mapped.reason }] };
  return { kind: "request", parts: { questions: mapped.questions, origin: { kind: "mcp-server", name: server } } };
}

function readApproval(value: unknown): PlaygroundResult {
  const shape = ApprovalArgs.safeParse(value);
  if (!shape.success) return { kind: "errors", errors: issuesOf(shape.error.issues) };
  const { server, tool, arguments: args = {}, destructive } = shape.data;
  const approval: ToolApproval = { server, tool, arguments: typeof args === "string" ? args : JSON.stringify(args), ...(destructive ? { destructive } : {}) };
  return { kind: "request", parts: { questions: approvalQuestions(approval), origin: { kind: "mcp-server", name: server }, approval } };
}

/** Reads pasted input of a kind: the request the slot would show, or every error with its path. */
export function readPlayground(json: string, input: PlaygroundInput = "questions"): PlaygroundResult {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { kind: "errors", errors: [{ path: "", message: `not JSON: ${(error as Error).message}` }] };
  }
  switch (input) {
    case "questions":
      return readQuestions(value);
    case "form":
      return readForm(value);
    case "approval":
      return readApproval(value);
    default:
      return input satisfies never;
  }
}
