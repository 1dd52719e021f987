import type { Model } from "./types";
import { createScriptedModel } from "./scripted";

/** Chooses the model from the environment: `PARLEY_MODEL=scripted` (default). */
export function createModelFromEnv(env: NodeJS.ProcessEnv): Model {
  const choice = env.PARLEY_MODEL ?? "scripted";
  if (choice === "scripted") return createScriptedModel();
  throw new Error(`PARLEY_MODEL=${choice} is not a known model; use "scripted"`);
}
