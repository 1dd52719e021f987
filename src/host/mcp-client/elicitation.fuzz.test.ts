import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { elicitationContent, elicitationQuestions } from "../../protocol/elicitation";
import { Questions } from "../../protocol/schemas";
import { elicitationReply } from "./elicitation-reply";

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const options = { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) };
// A second instance, as the server has its own: the property is that it accepts what the host sends.
const server = new AjvJsonSchemaValidator();

const name = fc.oneof(fc.constantFrom("a", "b", "email", "__proto__", "constructor", "toString", "x y"), fc.string({ maxLength: 6 }));
const label = fc.oneof(fc.constantFrom("Yes", "No", "x", "y", "", " "), fc.string({ maxLength: 5 }));
const bound = fc.oneof(fc.constant(undefined), fc.integer({ min: -3, max: 12 }), fc.double({ noNaN: true, min: -5, max: 5 }));
const count = fc.oneof(fc.constant(undefined), fc.integer({ min: 0, max: 4 }), fc.constant(-1), fc.constant(1.5));
const texts = fc.constantFrom(
  "ada@example.com",
  "not-an-email",
  "ü@x.co",
  "https://example.com/a?b=c",
  "http://exa mple.com",
  "1815-12-10",
  "2026-02-30",
  "2026-03-01T10:00",
  "2026-03-01T10:00:00Z",
  "2026-03-01T10:00:00+02:00",
  "7",
  "-2.5",
  "1e400",
  "0x10",
  "ab",
  "a much longer answer",
  "",
  "  ",
);
const annotations = fc.record({ title: fc.string({ maxLength: 8 }), description: fc.string({ maxLength: 8 }) }, { requiredKeys: [] });
const withExtra = <T extends object>(arbitrary: fc.Arbitrary<T>) =>
  fc.tuple(arbitrary, annotations, fc.option(fc.dictionary(fc.constantFrom("default", "pattern", "examples", "x"), fc.jsonValue(), { maxKeys: 1 }), { nil: undefined })).map(([schema, notes, extra]) => ({
    ...schema,
    ...notes,
    ...extra,
  }));
const drop = <T extends Record<string, unknown>>(value: T) => Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined));
const titled = fc.array(fc.record({ const: label, title: label }), { minLength: 0, maxLength: 4 });

const property: fc.Arbitrary<unknown> = fc.oneof(
  withExtra(fc.record({ type: fc.constant("boolean"), default: fc.option(fc.boolean(), { nil: undefined }) }).map(drop)),
  withExtra(fc.record({ type: fc.constant("string"), enum: fc.array(label, { maxLength: 4 }) })),
  withExtra(fc.record({ type: fc.constant("string"), enum: fc.array(label, { maxLength: 3 }), enumNames: fc.array(label, { maxLength: 3 }) })),
  withExtra(fc.record({ type: fc.constant("string"), oneOf: titled })),
  withExtra(fc.record({ type: fc.constant("array"), minItems: count, maxItems: count, items: fc.record({ type: fc.constant("string"), enum: fc.array(label, { maxLength: 4 }) }) }).map(drop)),
  withExtra(fc.record({ type: fc.constant("array"), minItems: count, maxItems: count, items: fc.record({ anyOf: titled }) }).map(drop)),
  withExtra(fc.record({ type: fc.constant("string"), format: fc.constantFrom(undefined, "email", "uri", "date", "date-time", "ipv4"), minLength: count, maxLength: count }).map(drop)),
  withExtra(fc.record({ type: fc.constantFrom("number", "integer"), minimum: bound, maximum: bound }).map(drop)),
  fc.record({ type: fc.constant("object"), properties: fc.constant({}) }),
  fc.jsonValue(),
);

const requestedSchema: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.dictionary(name, property, { minKeys: 0, maxKeys: 5 }).chain((properties) => fc.record({ type: fc.constant("object"), properties: fc.constant(properties), required: fc.subarray(Object.keys(properties)) })) },
  { weight: 1, arbitrary: fc.jsonValue() },
);

describe("elicitation fuzz", { timeout: 120_000 }, () => {
  it("maps any requestedSchema to questions the protocol accepts, one per property, or to a clean decline [elicitation-mapping]", () => {
    fc.assert(
      fc.property(requestedSchema, fc.option(fc.string({ maxLength: 20 }), { nil: undefined }), (schema, message) => {
        const mapped = elicitationQuestions(schema, message);
        if (!mapped.ok) {
          expect(mapped.reason).toMatch(/\S/);
          return;
        }
        expect(Questions.safeParse(mapped.questions).success).toBe(true);
        expect(mapped.questions.map((item) => item.id)).toEqual(Object.keys((schema as { properties: object }).properties));
      }),
      options,
    );
  });

  it("reads any answers back as content the server's validator accepts, or refuses them naming a rule [elicitation-content]", () => {
    const mappedSchema = requestedSchema.filter((schema) => elicitationQuestions(schema).ok);
    const case_ = mappedSchema.chain((schema) => {
      const mapped = elicitationQuestions(schema);
      const questions = mapped.ok ? mapped.questions : [];
      const answer = (item: (typeof questions)[number]) =>
        fc.record(
          {
            id: fc.oneof({ weight: 9, arbitrary: fc.constant(item.id) }, { weight: 1, arbitrary: name }),
            selected: fc.oneof(fc.subarray((item.options ?? []).map((option) => option.label)), fc.array(label, { maxLength: 2 })),
            custom: texts,
          },
          { requiredKeys: ["id", "selected"] },
        );
      return fc.tuple(fc.constant(schema), fc.constant(questions), fc.tuple(...questions.map(answer)));
    });
    let accepted = 0;
    fc.assert(
      fc.property(case_, ([schema, questions, answers]) => {
        const pure = elicitationContent(schema, questions, answers);
        const reply = elicitationReply(schema, questions, answers);
        if (!reply.ok) {
          expect(reply.problem).toMatch(/\S/);
          return;
        }
        accepted++;
        expect(pure).toEqual(reply);
        expect(server.getValidator(schema as Record<string, unknown>)(reply.content)).toEqual({ valid: true, data: reply.content, errorMessage: undefined });
      }),
      options,
    );
    expect(accepted).toBeGreaterThan(0);
  });

  it("never lets the question rules pass content the server's validator refuses", () => {
    fc.assert(
      fc.property(requestedSchema, fc.array(fc.tuple(fc.array(label, { maxLength: 2 }), fc.option(texts, { nil: undefined })), { maxLength: 5 }), (schema, raw) => {
        const mapped = elicitationQuestions(schema);
        if (!mapped.ok) return;
        const answers = mapped.questions.map((item, index) => {
          const [selected, custom] = raw[index] ?? [[], undefined];
          return { id: item.id, selected, ...(custom === undefined ? {} : { custom }) };
        });
        const pure = elicitationContent(schema, mapped.questions, answers);
        if (!pure.ok) return;
        expect(server.getValidator(schema as Record<string, unknown>)(pure.content).errorMessage).toBe(undefined);
      }),
      options,
    );
  });
});
