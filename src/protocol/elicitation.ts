import { checkAnswers, isSkip, parseNumberAnswer } from "./answers";
import { fail, isRecord, optionalString, own, readField, Unsupported, valueProblem, type Choice, type Field } from "./elicitation-field";
import { AnswerItem, LIMITS, Questions, type AnswerDefaults, type QuestionItem } from "./schemas";

import { NO_LABEL, YES_LABEL } from "./yes-no";

export { NO_LABEL, YES_LABEL };

/** A value an accepted elicitation carries per property, as the MCP spec allows. */
export type ElicitationValue = string | number | boolean | string[];
export type ElicitationContent = Record<string, ElicitationValue>;

export type ElicitationQuestions = { ok: true; questions: QuestionItem[] } | { ok: false; reason: string };
export type ElicitationContentResult = { ok: true; content: ElicitationContent } | { ok: false; problem: string };

/**
 * How a form is read beyond the MCP mapping. `pairedOther`: an optional plain string property named
 * `<name>_custom` beside an optional choice property `<name>` is that question's free-text "Other"
 * (ACP agents, Claude Code's AskUserQuestion), not a question of its own.
 */
export interface ElicitationMappingOptions {
  pairedOther?: boolean;
}

/** The suffix of a property that holds a choice property's free-text answer (ElicitationMappingOptions.pairedOther). */
export const PAIRED_OTHER_SUFFIX = "_custom";
/** The keywords a requested schema may have at its top. */
const TOP_LEVEL = new Set(["type", "properties", "required", "$schema", "title", "description", "$comment"]);

function defaults(field: Field, value: unknown, where: string): AnswerDefaults | undefined {
  if (value === undefined) return undefined;
  const problem = valueProblem(field, value);
  if (problem) fail(`${where}: the default ${problem}`);
  switch (field.kind) {
    case "boolean":
      return { selected: [value === true ? YES_LABEL : NO_LABEL] };
    case "choice":
      return { selected: [field.choices.find((choice) => choice.value === value)!.label] };
    case "choices":
      return { selected: (value as string[]).map((item) => field.choices.find((choice) => choice.value === item)!.label) };
    case "text":
    case "number":
      // A blank default pre-fills nothing: blank text is no answer.
      return String(value).trim() === "" ? undefined : { custom: String(value) };
  }
}

function optionOf(choice: Choice): { label: string; description?: string } {
  return choice.description === undefined ? { label: choice.label } : { label: choice.label, description: choice.description };
}

function question(name: string, field: Field, schema: Record<string, unknown>, required: boolean, where: string): QuestionItem {
  const title = optionalString(schema, "title", where);
  const description = optionalString(schema, "description", where);
  const prefill = defaults(field, own(schema, "default"), where);
  const base: QuestionItem = {
    id: name,
    question: title !== undefined && title.trim() !== "" ? title : name,
    ...(description !== undefined && description.trim() !== "" ? { detail: description } : {}),
    ...(required ? { required: true } : {}),
    ...(prefill ? { defaults: prefill } : {}),
  };
  switch (field.kind) {
    case "boolean":
      return { ...base, options: [{ label: YES_LABEL }, { label: NO_LABEL }], freeText: false };
    case "choice":
      return { ...base, options: field.choices.map(optionOf), freeText: false };
    case "choices":
      return {
        ...base,
        options: field.choices.map(optionOf),
        multiSelect: true,
        freeText: false,
        ...(field.minItems === undefined ? {} : { minSelected: field.minItems }),
        ...(field.maxItems === undefined ? {} : { maxSelected: field.maxItems }),
      };
    case "text":
    case "number":
      return { ...base, input: field.input };
  }
}

interface Form {
  names: string[];
  fields: Map<string, Field>;
  required: Set<string>;
  questions: QuestionItem[];
  /** The properties asked as questions, in order (all of `names` but paired "Other" fields). */
  asked: string[];
  /** A choice property's paired free-text property (ElicitationMappingOptions.pairedOther). */
  others: Map<string, string>;
}

/** The choice properties whose `<name>_custom` property is their "Other": both optional, the companion plain text. */
function pairedOthers(names: readonly string[], fields: Map<string, Field>, required: Set<string>): Map<string, string> {
  const others = new Map<string, string>();
  for (const name of names) {
    if (!name.endsWith(PAIRED_OTHER_SUFFIX)) continue;
    const base = name.slice(0, -PAIRED_OTHER_SUFFIX.length);
    const field = fields.get(name);
    const choice = fields.get(base);
    if (!field || field.kind !== "text" || field.input.kind !== "text" || field.input.minLength !== undefined) continue;
    if (!choice || (choice.kind !== "choice" && choice.kind !== "choices")) continue;
    if (required.has(name) || required.has(base)) continue;
    others.set(base, name);
  }
  return others;
}

function readForm(requestedSchema: unknown, message: string | undefined, options: ElicitationMappingOptions = {}): Form {
  if (!isRecord(requestedSchema)) fail("the requested schema is not an object");
  for (const key of Object.keys(requestedSchema)) if (!TOP_LEVEL.has(key)) fail(`the requested schema's keyword "${key}" is not supported`);
  if (own(requestedSchema, "type") !== "object") fail('the requested schema must have type "object"');
  const properties = own(requestedSchema, "properties");
  if (!isRecord(properties)) fail('the requested schema needs "properties"');
  const names = Object.keys(properties);
  if (names.length === 0) fail("the requested schema has no properties");
  if (names.length > LIMITS.questionsPerBatch) fail(`the requested schema has more than ${LIMITS.questionsPerBatch} properties`);
  const requiredList = own(requestedSchema, "required") ?? [];
  if (!Array.isArray(requiredList) || !requiredList.every((item) => typeof item === "string")) fail('"required" must be a list of property names');
  const required = new Set(requiredList as string[]);
  for (const name of required) if (!Object.hasOwn(properties, name)) fail(`"required" names "${name}", which is not a property`);
  const fields = new Map<string, Field>();
  const questions = names.map((name) => {
    const where = `property "${name}"`;
    if (name.length === 0 || name.length > LIMITS.idChars) fail(`${where}: a property name is 1 to ${LIMITS.idChars} characters`);
    // The server's SDK reads the content into a fresh object by assignment, where "__proto__" sets the prototype: the answer would never arrive.
    if (name === "__proto__") fail(`${where}: the server's SDK drops a property of this name from the answer`);
    const schema = own(properties, name);
    if (!isRecord(schema)) fail(`${where} is not a schema`);
    const field = readField(schema, where);
    fields.set(name, field);
    // Validators that read `content.toString` see Object.prototype's member when it is left out, and
    // refuse the content (the SDK's ajv does), so a property named like one must be answered.
    return question(name, field, schema, required.has(name) || name in Object.prototype, where);
  });
  const others = options.pairedOther ? pairedOthers(names, fields, required) : new Map<string, string>();
  const companions = new Set(others.values());
  const asked = names.filter((name) => !companions.has(name));
  if (companions.size > 0) {
    const kept = questions.filter((item) => !companions.has(item.id)).map((item) => (others.has(item.id) ? withOther(item) : item));
    questions.splice(0, questions.length, ...kept);
  }
  if (message !== undefined && message.trim() !== "") {
    const first = questions[0]!;
    questions[0] = { ...first, detail: first.detail === undefined ? message : `${message}\n\n${first.detail}` };
  }
  const parsed = Questions.safeParse(questions);
  if (!parsed.success) fail(`the questions it maps to break a limit: ${parsed.error.issues[0]!.path.join(".")}: ${parsed.error.issues[0]!.message}`);
  return { names, fields, required, questions, asked, others };
}

function withOther(item: QuestionItem): QuestionItem {
  const { freeText: _offered, ...rest } = item;
  void _offered;
  return rest;
}

function attempt<T>(run: () => T): T | { ok: false; reason: string } {
  try {
    return run();
  } catch (error) {
    if (error instanceof Unsupported) return { ok: false, reason: error.message };
    throw error;
  }
}

/**
 * Maps a form elicitation's `requestedSchema` to one question per property (docs/protocol.md, rule
 * elicitation-mapping); the server's `message` leads the first question's detail. Anything outside
 * the mapping is `ok: false` with the reason, never a question the panel cannot answer.
 */
export function elicitationQuestions(requestedSchema: unknown, message?: string, options?: ElicitationMappingOptions): ElicitationQuestions {
  return attempt(() => ({ ok: true as const, questions: readForm(requestedSchema, message, options).questions }));
}

/** Checks `content` against the supported subset of `requestedSchema`; null when it is valid, else the first rule it breaks. */
export function elicitationContentProblem(requestedSchema: unknown, content: unknown): string | null {
  const form = attempt(() => readForm(requestedSchema, undefined));
  if ("ok" in form) return form.reason;
  if (!isRecord(content)) return "the content is not an object";
  for (const key of Object.keys(content)) if (!form.fields.has(key)) return `"${key}" is not a property of the requested schema`;
  for (const name of form.names) {
    const value = own(content, name);
    if (value === undefined) {
      if (form.required.has(name)) return `"${name}" is required`;
      continue;
    }
    const problem = valueProblem(form.fields.get(name)!, value);
    if (problem) return `"${name}" ${problem}`;
  }
  return null;
}

function labelValue(choices: Choice[], label: string): string {
  return choices.find((choice) => choice.label === label)!.value;
}

function typedValue(field: Field, answer: AnswerItem): ElicitationValue {
  switch (field.kind) {
    case "boolean":
      return answer.selected[0] === YES_LABEL;
    case "choice":
      return labelValue(field.choices, answer.selected[0]!);
    case "choices":
      return answer.selected.map((label) => labelValue(field.choices, label));
    case "text": {
      const text = (answer.custom ?? "").trim();
      // A time typed without seconds gains ":00"; nothing else is guessed (least of all a time zone).
      return field.input.kind === "date-time" ? text.replace(/^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(?=$|[Zz+-])/, "$1:00") : text;
    }
    case "number":
      return parseNumberAnswer(answer.custom ?? "") ?? Number.NaN;
  }
}

/**
 * Reads the human's answers back into the content of `action: "accept"`, typed per the schema (titles
 * to their const, numbers, booleans, lists), skipped optional properties left out, then checks it
 * (docs/protocol.md, rule elicitation-content). `questions` are what `elicitationQuestions` returned.
 */
export function elicitationContent(requestedSchema: unknown, questions: readonly QuestionItem[], answers: readonly unknown[], options?: ElicitationMappingOptions): ElicitationContentResult {
  const form = attempt(() => readForm(requestedSchema, undefined, options));
  if ("ok" in form) return { ok: false, problem: form.reason };
  if (questions.length !== form.asked.length || questions.some((item, index) => item.id !== form.asked[index])) {
    return { ok: false, problem: "the questions do not match the requested schema" };
  }
  const rule = checkAnswers(questions, answers);
  if (rule) return { ok: false, problem: rule };
  const content: ElicitationContent = {};
  // defineProperty, not assignment, so no property name can reach the prototype.
  const put = (name: string, value: ElicitationValue) => Object.defineProperty(content, name, { value, enumerable: true, writable: true, configurable: true });
  form.asked.forEach((name, index) => {
    const answer = AnswerItem.parse(answers[index]);
    if (isSkip(answer)) return;
    const other = form.others.get(name);
    if (other === undefined) {
      put(name, typedValue(form.fields.get(name)!, answer));
      return;
    }
    if (answer.selected.length > 0) put(name, typedValue(form.fields.get(name)!, answer));
    const text = answer.custom?.trim();
    if (text) put(other, text);
  });
  const problem = elicitationContentProblem(requestedSchema, content);
  return problem ? { ok: false, problem } : { ok: true, content };
}
