import type { TestProject } from "vitest/node";
import { startTestPostgres } from "./postgres";

declare module "vitest" {
  export interface ProvidedContext {
    /** The admin URL of the run's one throwaway Postgres cluster (node-postgres project); each test host gets its own database in it. */
    parleyPostgresUrl: string;
  }
}

/** Vitest globalSetup of the node-postgres project: one throwaway cluster for the whole run, stopped and removed at the end. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startTestPostgres();
  project.provide("parleyPostgresUrl", cluster.url);
  return () => cluster.stop();
}
