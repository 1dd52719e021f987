import { afterAll, beforeAll } from "vitest";
import { startTestPostgres, type TestPostgres } from "./postgres";

/** Starts a throwaway Postgres before the suite's tests and stops it after them; returns its getter. */
export function useTestPostgres(): () => TestPostgres {
  let postgres: TestPostgres | undefined;
  beforeAll(async () => {
    postgres = await startTestPostgres();
  }, 60_000);
  afterAll(async () => {
    await postgres?.stop();
  });
  return () => {
    if (!postgres) throw new Error("the test Postgres is not running: call useTestPostgres() inside a describe block");
    return postgres;
  };
}
