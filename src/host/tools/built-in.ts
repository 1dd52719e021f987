import { createUserInteraction, UserInteractionError, type UserInteraction } from "../pending/user-interaction";
import { createAskUserQuestionTool } from "./ask-user-question";
import { createPresentPlanTool } from "./present-plan";
import { createToolRegistry, type ToolRegistry } from "./registry";

/** Parley's own tools (`ask_user_question`, `present_plan`), asking through `seam`: for its agent and for `/mcp`. */
export function createBuiltInTools(seam: UserInteraction): ToolRegistry {
  const registry = createToolRegistry();
  registry.register(createAskUserQuestionTool(seam));
  registry.register(createPresentPlanTool(seam));
  return registry;
}

/** The built-in tools as they are listed, where nothing may ask (the bridge while its host is down, schema checks). */
export function listedBuiltInTools(): ToolRegistry {
  return createBuiltInTools(createUserInteraction({ ask: () => Promise.reject(new UserInteractionError("ASK_ABORTED", "these tools are listed here, not run")) }));
}
