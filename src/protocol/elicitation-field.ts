import { describeInputProblem, inputProblem } from "./answers";
import { LIMITS, type AnswerInput, type AnswerInputKind } from "./schemas";

// One property of a form elicitation's requested schema (docs/protocol.md, rule elicitation-mapping): the supported subset of
// JSON Schema it is read as (a Field, or Unsupported with the reason), and which values it accepts as content.

/** One option of a choice property: the value sent back, the title shown, and its description. */
export type Choice = { value: string; label: string; description?: string };

/** What one property was mapped to; kept so an answer can be read back into typed content. */
export type Field =
  | { kind: "boolean" }
  | { kind: "choice"; choices: Choice[] }
  | { kind: "choices"; choices: Choice[]; minItems?: number; maxItems?: number }
  | { kind: "text"; input: AnswerInput }
  | { kind: "number"; input: AnswerInput };

const ANNOTATIONS = ["title", "description", "default", "$comment", "examples", "deprecated", "readOnly", "writeOnly"];
const FORMATS = new Map<string, AnswerInputKind>([
  ["email", "email"],
  ["uri", "url"],
  ["date", "date"],
  ["date-time", "date-time"],
]);

/** A schema outside the supported subset; its message is the reason given back. */
export class Unsupported extends Error {}

/** Throws Unsupported with the reason. */
export function fail(reason: string): never {
  throw new Unsupported(reason);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A record's own property, never one of its prototype's. */
export function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function onlyKeys(record: Record<string, unknown>, allowed: readonly string[], where: string) {
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key) && !ANNOTATIONS.includes(key)) fail(`${where}: the keyword "${key}" is not supported`);
  }
}

export function optionalString(record: Record<string, unknown>, key: string, where: string): string | undefined {
  const value = own(record, key);
  if (value !== undefined && typeof value !== "string") fail(`${where}: "${key}" must be a string`);
  return value as string | undefined;
}

function count(record: Record<string, unknown>, key: string, where: string): number | undefined {
  const value = own(record, key);
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) fail(`${where}: "${key}" must be a whole number of at least 0`);
  return value;
}

function bound(record: Record<string, unknown>, key: string, where: string): number | undefined {
  const value = own(record, key);
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value)) fail(`${where}: "${key}" must be a finite number`);
  return value;
}

function stringList(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((item) => typeof item === "string")) fail(`${where} must be a non-empty list of strings`);
  return value as string[];
}

function titled(value: unknown, where: string): Choice[] {
  if (!Array.isArray(value) || value.length === 0) fail(`${where} must be a non-empty list of {const, title}`);
  return (value as unknown[]).map((entry, index) => {
    if (!isRecord(entry)) fail(`${where}[${index}] must be {const, title}`);
    onlyKeys(entry, ["const", "title"], `${where}[${index}]`);
    const constant = own(entry, "const");
    const title = own(entry, "title");
    if (typeof constant !== "string" || typeof title !== "string") fail(`${where}[${index}] needs a string const and a string title`);
    const description = optionalString(entry, "description", `${where}[${index}]`);
    if (description !== undefined && description.length > LIMITS.descriptionChars) fail(`${where}[${index}]: a description is at most ${LIMITS.descriptionChars} characters`);
    return { value: constant, label: title, ...(description !== undefined && description.trim() !== "" ? { description } : {}) };
  });
}

function checkChoices(choices: Choice[], where: string): Choice[] {
  if (choices.length > LIMITS.optionsPerQuestion) fail(`${where}: more than ${LIMITS.optionsPerQuestion} options`);
  const labels = new Set<string>();
  const values = new Set<string>();
  for (const choice of choices) {
    if (choice.label.trim() === "" || choice.label.length > LIMITS.labelChars) fail(`${where}: an option title is empty or longer than ${LIMITS.labelChars} characters`);
    if (labels.has(choice.label)) fail(`${where}: the option title "${choice.label}" appears twice`);
    if (values.has(choice.value)) fail(`${where}: the value "${choice.value}" appears twice`);
    labels.add(choice.label);
    values.add(choice.value);
  }
  return choices;
}

/** Reads one property's schema as its Field; throws Unsupported when it is outside the subset (`where` names it). */
export function readField(schema: Record<string, unknown>, where: string): Field {
  const type = own(schema, "type");
  switch (type) {
    case "boolean":
      onlyKeys(schema, ["type"], where);
      return { kind: "boolean" };
    case "number":
    case "integer": {
      onlyKeys(schema, ["type", "minimum", "maximum"], where);
      const minimum = bound(schema, "minimum", where);
      const maximum = bound(schema, "maximum", where);
      if (minimum !== undefined && maximum !== undefined && minimum > maximum) fail(`${where}: minimum is above maximum`);
      return { kind: "number", input: { kind: type, ...(minimum === undefined ? {} : { minimum }), ...(maximum === undefined ? {} : { maximum }) } };
    }
    case "string": {
      if (own(schema, "enum") !== undefined) {
        onlyKeys(schema, ["type", "enum", "enumNames"], where);
        const values = stringList(own(schema, "enum"), `${where}: "enum"`);
        const names = own(schema, "enumNames");
        if (names === undefined) return { kind: "choice", choices: checkChoices(values.map((value) => ({ value, label: value })), where) };
        const labels = stringList(names, `${where}: "enumNames"`);
        if (labels.length !== values.length) fail(`${where}: "enumNames" must name every "enum" value`);
        return { kind: "choice", choices: checkChoices(values.map((value, index) => ({ value, label: labels[index]! })), where) };
      }
      if (own(schema, "oneOf") !== undefined) {
        onlyKeys(schema, ["type", "oneOf"], where);
        return { kind: "choice", choices: checkChoices(titled(own(schema, "oneOf"), `${where}: "oneOf"`), where) };
      }
      onlyKeys(schema, ["type", "format", "minLength", "maxLength"], where);
      const format = optionalString(schema, "format", where);
      const kind = format === undefined ? "text" : FORMATS.get(format);
      if (kind === undefined) fail(`${where}: the format "${format}" is not supported`);
      const minLength = count(schema, "minLength", where);
      const maxLength = count(schema, "maxLength", where);
      if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) fail(`${where}: minLength is above maxLength`);
      return { kind: "text", input: { kind, ...(minLength === undefined ? {} : { minLength }), ...(maxLength === undefined ? {} : { maxLength }) } };
    }
    case "array": {
      onlyKeys(schema, ["type", "items", "minItems", "maxItems"], where);
      const items = own(schema, "items");
      if (!isRecord(items)) fail(`${where}: "items" must be an enum schema`);
      let choices: Choice[];
      if (own(items, "anyOf") !== undefined) {
        onlyKeys(items, ["anyOf"], `${where}.items`);
        choices = titled(own(items, "anyOf"), `${where}.items: "anyOf"`);
      } else {
        onlyKeys(items, ["type", "enum"], `${where}.items`);
        if (own(items, "type") !== "string") fail(`${where}.items: only string enums can be chosen from`);
        choices = stringList(own(items, "enum"), `${where}.items: "enum"`).map((value) => ({ value, label: value }));
      }
      const minItems = count(schema, "minItems", where);
      const maxItems = count(schema, "maxItems", where);
      if (minItems !== undefined && maxItems !== undefined && minItems > maxItems) fail(`${where}: minItems is above maxItems`);
      return { kind: "choices", choices: checkChoices(choices, where), ...(minItems === undefined ? {} : { minItems }), ...(maxItems === undefined ? {} : { maxItems }) };
    }
    case "object":
      return fail(`${where}: nested objects are not supported`);
    default:
      return fail(`${where}: the type ${JSON.stringify(type) ?? "(none)"} is not supported`);
  }
}

// The formats as JSON Schema validators read them (RFC 5321 dot-atoms, RFC 3986 characters, RFC 3339
// date-times with seconds and an offset): stricter than what a question's input accepts as typed.
const RFC_EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const RFC_URI = /^[a-z][a-z0-9+.-]*:(?:[a-z0-9\-._~!$&'()*+,;=:@/?#[\]]|%[0-9a-f]{2})*$/i;
const RFC_DATE_TIME = /^\d{4}-\d{2}-\d{2}T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

function formatProblem(kind: AnswerInputKind, value: string): string | null {
  switch (kind) {
    case "email":
      return RFC_EMAIL.test(value) ? null : "must be an email address (letters, digits and !#$%&'*+/=?^_`{|}~- before the @)";
    case "url":
      return RFC_URI.test(value) ? null : "must be a URL of ASCII characters (others percent-encoded)";
    case "date-time": {
      const match = RFC_DATE_TIME.exec(value);
      const inRange = match !== null && Number(match[1]) <= 23 && Number(match[2]) <= 59 && Number(match[3]) <= 59 && Number(match[4] ?? 0) <= 23 && Number(match[5] ?? 0) <= 59;
      return inRange ? null : "must be a date and time with seconds and a time zone (YYYY-MM-DDTHH:MM:SSZ)";
    }
    default:
      return null;
  }
}

/** Whether `value` is content the field accepts; null when it is, else the rule it breaks. */
export function valueProblem(field: Field, value: unknown): string | null {
  switch (field.kind) {
    case "boolean":
      return typeof value === "boolean" ? null : "must be true or false";
    case "choice":
      return typeof value === "string" && field.choices.some((choice) => choice.value === value) ? null : "must be one of its options";
    case "choices": {
      if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) return "must be a list of options";
      if (!value.every((item) => field.choices.some((choice) => choice.value === item))) return "must hold only its options";
      if (new Set(value).size !== value.length) return "must not hold an option twice";
      if (field.minItems !== undefined && value.length < field.minItems) return `must hold at least ${field.minItems} option(s)`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `must hold at most ${field.maxItems} option(s)`;
      return null;
    }
    case "text": {
      if (typeof value !== "string") return "must be text";
      const problem = inputProblem(field.input, value);
      if (problem) return describeInputProblem(problem);
      return formatProblem(field.input.kind, value);
    }
    case "number": {
      if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
      if (field.input.kind === "integer" && !Number.isInteger(value)) return "must be a whole number";
      if (field.input.minimum !== undefined && value < field.input.minimum) return `must be at least ${field.input.minimum}`;
      if (field.input.maximum !== undefined && value > field.input.maximum) return `must be at most ${field.input.maximum}`;
      return null;
    }
  }
}
