/** The tools Parley serves: one name each, shared by the host, the MCP front door and the transcript. */
export const TOOL_NAMES = {
  askUserQuestion: "ask_user_question",
  presentPlan: "present_plan",
  askUserQuestionWait: "ask_user_question_wait",
} as const;
