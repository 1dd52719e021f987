import type { ToolError } from "./schemas";

/** The message of an ASK_ABORTED tool error: the question was never answered (stopped, interrupted). */
export const ABORTED_MESSAGE = "ask_user_question was aborted before the user answered";
/** The message of an ASK_CANCELLED tool error: the human dismissed the questions. */
export const CANCELLED_MESSAGE = "the user cancelled ask_user_question";

/** The tool row's error when the human dismissed the questions (docs/protocol.md, Tools the agent calls). */
export const ASK_CANCELLED_ERROR: ToolError = { name: "UserInteractionError", code: "ASK_CANCELLED", message: CANCELLED_MESSAGE };
/** The tool row's error when the question was never answered. */
export const ASK_ABORTED_ERROR: ToolError = { name: "UserInteractionError", code: "ASK_ABORTED", message: ABORTED_MESSAGE };
/** The tool row's error when the host stopped after the human allowed the call: it may not have run, or not to its end. */
export const TOOL_INTERRUPTED_ERROR: ToolError = {
  name: "ToolError",
  code: "TOOL_INTERRUPTED",
  message: "the human allowed this call, but the host running it stopped before it finished: it may not have run, or not to its end",
};

/** The model's text when the human denied a tool call on its approval card, with the reason they gave. */
export function deniedMessage(reason: string | undefined): string {
  return reason ? `the human denied this call: ${reason}` : "the human denied this call";
}
/** The model's text when the human dismissed a tool call's approval card. */
export const DISMISSED_APPROVAL_MESSAGE = "the human dismissed the approval request without allowing this call";
