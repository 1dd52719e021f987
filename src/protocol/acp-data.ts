import { z } from "zod/mini";

// What an ACP agent's rows and permission requests carry for the transcript and the approval card (docs/protocol.md, acp-rows).

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
    /** In a cluster, the host whose agent process opened this session: prompts on other hosts are passed to it while it lives. */
    host: z.optional(z.string()),
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
