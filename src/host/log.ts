/** One structured log entry; never carries message or answer text, nor a token. */
export type LogEntry = { event: string } & Record<string, string | number | boolean | null | undefined>;
export type Logger = (entry: LogEntry) => void;

export const silentLogger: Logger = () => undefined;

/** Writes one JSON line per entry, with the time first. */
export function createJsonLogger(write: (line: string) => void): Logger {
  return (entry) => write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
}
