import type { ErrorCode } from "../protocol/schemas";

export type StorageCode = Extract<ErrorCode, "STORAGE_FULL" | "STORAGE_READONLY" | "STORAGE_BUSY" | "STORAGE_FAILED">;

/** A read or write of the store failed; the message says what to do and names where the data lives. */
export class StorageError extends Error {
  override readonly name = "StorageError";
  constructor(
    readonly code: StorageCode,
    message: string,
    readonly sqliteCode: string | null,
  ) {
    super(message);
  }
}

/** The HTTP status a storage failure is answered with. */
export function storageStatus(code: StorageCode): 500 | 503 | 507 {
  switch (code) {
    case "STORAGE_FULL":
      return 507;
    case "STORAGE_READONLY":
    case "STORAGE_BUSY":
      return 503;
    case "STORAGE_FAILED":
      return 500;
    default:
      return code satisfies never;
  }
}

/** Maps a driver error (SQLite's `SQLITE_FULL`, `SQLITE_READONLY_…`, `SQLITE_BUSY`, an errno) to a StorageError naming `location`. */
export function toStorageError(error: unknown, location: string): StorageError {
  if (error instanceof StorageError) return error;
  const raw = (error as { code?: unknown } | null)?.code;
  const code = typeof raw === "string" ? raw : null;
  const detail = error instanceof Error ? error.message : String(error);
  if (code === "SQLITE_FULL" || code === "ENOSPC" || code === "SQLITE_IOERR_WRITE" && /full|space/i.test(detail)) {
    return new StorageError("STORAGE_FULL", `the disk holding the data dir (${location}) is full: free some space; what was not saved is lost`, code);
  }
  if (code !== null && (code.startsWith("SQLITE_READONLY") || code === "EROFS" || code === "EACCES" || code === "SQLITE_CANTOPEN")) {
    return new StorageError("STORAGE_READONLY", `the data dir (${location}) cannot be written: check its permissions and that its disk is mounted read-write`, code);
  }
  if (code !== null && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))) {
    return new StorageError("STORAGE_BUSY", `the database in the data dir (${location}) is locked by another process: stop it, then retry`, code);
  }
  return new StorageError("STORAGE_FAILED", `the database in the data dir (${location}) failed: ${detail}`, code);
}
