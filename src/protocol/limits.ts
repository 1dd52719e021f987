import { z } from "zod/mini";

/** The wire protocol version both ends speak. */
export const PROTOCOL_VERSION = 2;

/** Limits of docs/protocol.md, shared by the host, the client and the tool. */
export const LIMITS = {
  labelChars: 200,
  descriptionChars: 1000,
  idChars: 64,
  questionChars: 4000,
  headerChars: 100,
  detailChars: 20000,
  optionsPerQuestion: 50,
  questionsPerBatch: 20,
  messageChars: 20000,
  httpBodyBytes: 256 * 1024,
  socketPayloadBytes: 64 * 1024,
} as const;

/** A string of `min`..`max` characters. */
export const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));
/** A string of at most `max` characters. */
export const upTo = (max: number) => z.string().check(z.maxLength(max));
