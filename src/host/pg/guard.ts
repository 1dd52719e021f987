import type pg from "pg";
import { StorageError } from "../storage-error";
import { toPgStorageError } from "./errors";

/**
 * The Postgres store's guard over its pool: every query and transaction goes through it, so a failure becomes a
 * StorageError kept as the store's `trouble`, and a write is refused while the host may not write (its lease lapsed).
 */
export interface Guard {
  /** The last failure, cleared by the next write that succeeds (or any query, after the database was unreachable). */
  readonly trouble: StorageError | null;
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[], writes?: boolean): Promise<pg.QueryResult<R>>;
  /**
   * Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. `writes`
   * false: not refused while this host may not write its own rows (a live host's adoption of a dead one's).
   */
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>, writes?: boolean): Promise<T>;
  /** Refuses every write from now on; reads still work. */
  refuseWrites(reason: string): void;
  /** Asked before every write: a reason to refuse it now, or null. */
  refuseWritesWhen(check: () => string | null): void;
}

/**
 * Postgres text holds no U+0000, which an agent's or a model's text may carry (SQLite keeps it): stored as U+FFFD, the
 * mark of a character that could not be kept, rather than failing the write and losing the rest of the text.
 */
export function storableValues(values: unknown[]): unknown[] {
  if (!values.some((value) => typeof value === "string" && value.includes("\u0000"))) return values;
  return values.map((value) => (typeof value === "string" ? value.replaceAll("\u0000", "\uFFFD") : value));
}

/** A data exception (SQLSTATE class 22: a value the column cannot take) is the request's problem, not the storage's. */
const requestFault = (error: StorageError) => error.sqliteCode?.startsWith("22") === true;

export function createGuard(pool: pg.Pool, location: string): Guard {
  let trouble: StorageError | null = null;
  let fenced: string | null = null;
  let writeCheck: () => string | null = () => null;
  const refusal = () => fenced ?? writeCheck();
  // An idle client losing its connection (Postgres restarted) is reported here; the next query gets a fresh one.
  pool.on("error", (error) => {
    trouble = toPgStorageError(error, location);
  });
  return {
    get trouble() {
      return trouble;
    },
    async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = [], writes = true): Promise<pg.QueryResult<R>> {
      const refused = writes ? refusal() : null;
      if (refused !== null) throw (trouble = new StorageError("STORAGE_BUSY", refused, null));
      try {
        const result = await pool.query<R>(text, storableValues(values));
        if (writes || trouble?.code === "STORAGE_BUSY") trouble = null;
        return result;
      } catch (failure) {
        const error = toPgStorageError(failure, location);
        if (!requestFault(error)) trouble = error;
        throw error;
      }
    },
    async transaction(work, writes = true) {
      const refused = writes ? refusal() : null;
      if (refused !== null) throw (trouble = new StorageError("STORAGE_BUSY", refused, null));
      const client = await pool.connect().catch((failure: unknown) => {
        throw (trouble = toPgStorageError(failure, location));
      });
      try {
        await client.query("BEGIN");
        // The transaction's statements take text as the guard's own queries do.
        const storing = Object.assign(Object.create(client) as pg.PoolClient, { query: (text: string, values?: unknown[]) => client.query(text, values && storableValues(values)) });
        const result = await work(storing);
        await client.query("COMMIT");
        trouble = null;
        return result;
      } catch (failure) {
        // The failure reported is the one that broke the transaction; a rollback on a dead connection adds nothing to it.
        await client.query("ROLLBACK").catch(() => undefined);
        const error = toPgStorageError(failure, location);
        // A lock another host holds kept a transaction on its behalf (an adoption) waiting: this host's storage is fine.
        if (!requestFault(error) && (writes || error.sqliteCode !== "55P03")) trouble = error;
        throw error;
      } finally {
        client.release();
      }
    },
    refuseWrites(reason) {
      fenced = reason;
    },
    refuseWritesWhen(check) {
      writeCheck = check;
    },
  };
}
