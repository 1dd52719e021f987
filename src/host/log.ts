/** One structured log entry; never carries message or answer text, nor a token. */
export type LogEntry = { event: string } & Record<string, string | number | boolean | null | undefined>;
export type Logger = (entry: LogEntry) => void;

export const silentLogger: Logger = () => undefined;

/** An error as one line of text for the log (its message, or the thrown value as text). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Writes one JSON line per entry, with the time first. */
export function createJsonLogger(write: (line: string) => void): Logger {
  return (entry) => write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
}
