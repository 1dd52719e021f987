import { judgeAcpForm } from "./acp/elicitation";
import { judgeElicitationSchema } from "./mcp-client/elicitation-rule";
import { judgeByKind } from "./pending/answer-rule";

/** How this host judges the rules asks add to the answer rules (docs/protocol.md, elicitation-content, acp-form). */
export const judgeAnswerRule = judgeByKind({ "elicitation-schema": judgeElicitationSchema, "acp-form-schema": judgeAcpForm });
