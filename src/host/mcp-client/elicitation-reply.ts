import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { elicitationContent, type ElicitationContentResult } from "../../protocol/elicitation";
import type { QuestionItem } from "../../protocol/schemas";

// The validator the SDK's server runs on an accepted elicitation: content it would refuse is never sent.
const validator = new AjvJsonSchemaValidator();
/** Compiled once per requested schema: the panel's check and the reply read the same one. */
const compiled = new WeakMap<object, ReturnType<AjvJsonSchemaValidator["getValidator"]>>();

function validatorFor(schema: Record<string, unknown>) {
  const known = compiled.get(schema);
  if (known) return known;
  const fresh = validator.getValidator(schema);
  compiled.set(schema, fresh);
  return fresh;
}

/**
 * The content of `action: "accept"` for these answers, or the rule they break: the question rules and
 * the schema subset (protocol/elicitation.ts), then the requested schema in full as the server checks it
 * (docs/protocol.md, rule elicitation-content).
 */
export function elicitationReply(requestedSchema: unknown, questions: readonly QuestionItem[], answers: readonly unknown[]): ElicitationContentResult {
  const content = elicitationContent(requestedSchema, questions, answers);
  if (!content.ok) return content;
  const verdict = validatorFor(requestedSchema as Record<string, unknown>)(content.content);
  return verdict.valid ? content : { ok: false, problem: `the answer does not match the requested schema: ${verdict.errorMessage ?? "invalid"}` };
}
