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

/** The default heartbeat interval; a client treats 2.5 intervals of silence as a dead connection. */
export const HEARTBEAT_INTERVAL_MS = 15_000;
