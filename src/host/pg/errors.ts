import { StorageError } from "../storage-error";

/** Postgres SQLSTATE classes and socket errors that mean "the database cannot be reached now". */
const UNREACHABLE = /^(08|57P|53300|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENOTFOUND)/;

/** A URL safe to log and show: the password is removed. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(a PARLEY_DATABASE_URL that is not a URL)";
  }
}

/** Maps a `pg` error (a SQLSTATE in `code`, or a socket errno) to a StorageError naming the database. */
export function toPgStorageError(error: unknown, location: string): StorageError {
  if (error instanceof StorageError) return error;
  const raw = (error as { code?: unknown } | null)?.code;
  const code = typeof raw === "string" ? raw : null;
  const detail = error instanceof Error ? error.message : String(error);
  if (code === "53100") return new StorageError("STORAGE_FULL", `the disk of the Postgres database (${location}) is full: free some space; what was not saved is lost`, code);
  if (code === "25006" || code === "42501") return new StorageError("STORAGE_READONLY", `the Postgres database (${location}) cannot be written: ${detail}`, code);
  if ((code !== null && UNREACHABLE.test(code)) || /Connection terminated|connection timeout|Client has encountered a connection error/i.test(detail)) {
    return new StorageError("STORAGE_BUSY", `the Postgres database (${location}) cannot be reached: ${detail}; retry when it is back`, code);
  }
  // Serialization, deadlock, a lock not had in time, a statement past its time: the database is busy, not broken.
  if (code === "40001" || code === "40P01" || code === "55P03" || code === "57014") return new StorageError("STORAGE_BUSY", `the Postgres database (${location}) is busy: ${detail}; retry`, code);
  return new StorageError("STORAGE_FAILED", `the Postgres database (${location}) failed: ${detail}`, code);
}
