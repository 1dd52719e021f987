/** Reads a record's own entry only: ids arrive from the wire, and an id such as "constructor" must not read an inherited Object.prototype member. */
export function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
