import type { ToolError } from "./schemas";

/** The message of an ASK_ABORTED tool error: the question was never answered (stopped, interrupted). */
export const ABORTED_MESSAGE = "ask_user_question was aborted before the user answered";
/** The message of an ASK_CANCELLED tool error: the human dismissed the questions. */
export const CANCELLED_MESSAGE = "the user cancelled ask_user_question";

/** The tool row's error when the human dismissed the questions (docs/protocol.md, Tools the agent calls). */
export const ASK_CANCELLED_ERROR: ToolError = { name: "UserInteractionError", code: "ASK_CANCELLED", message: CANCELLED_MESSAGE };
/** The tool row's error when the question was never answered. */
export const ASK_ABORTED_ERROR: ToolError = { name: "UserInteractionError", code: "ASK_ABORTED", message: ABORTED_MESSAGE };
