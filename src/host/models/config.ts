import type { Model } from "./types";
import { createScriptedModel } from "./scripted";
import { createOpenAIModel, displayURL } from "./openai";

const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";
const DEEPSEEK_BASE_URL = "https://api.deepseek.com";
const DEEPSEEK_DEFAULT_MODEL = "deepseek-chat";

/** A model choice the host cannot start with; the message says which setting to fix. */
export class ModelConfigError extends Error {
  override readonly name = "ModelConfigError";
}

function requireKey(env: NodeJS.ProcessEnv, variable: string, choice: string): string {
  const key = env[variable]?.trim();
  if (!key) {
    throw new ModelConfigError(
      `PARLEY_MODEL=${choice} needs ${variable}: set it to your API key (any non-empty value for a local server that ignores keys)`,
    );
  }
  return key;
}

function requireBaseURL(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new ModelConfigError(`OPENAI_BASE_URL must be an http(s) URL such as http://127.0.0.1:11434/v1`);
  }
  return value;
}

/**
 * Chooses the model from the environment:
 * `PARLEY_MODEL=scripted` (default); `openai:<model>` with `OPENAI_API_KEY` and optional `OPENAI_BASE_URL`;
 * `deepseek` or `deepseek:<model>` with `DEEPSEEK_API_KEY` (base `https://api.deepseek.com`, model `deepseek-chat`).
 */
export function createModelFromEnv(env: NodeJS.ProcessEnv): Model {
  const choice = env.PARLEY_MODEL?.trim() || "scripted";
  if (choice === "scripted") {
    const raw = env.PARLEY_SCRIPTED_CHUNK_MS?.trim();
    const chunkDelayMs = raw ? Number(raw) : 0;
    if (!Number.isInteger(chunkDelayMs) || chunkDelayMs < 0 || chunkDelayMs > 10_000) throw new ModelConfigError(`PARLEY_SCRIPTED_CHUNK_MS=${raw} is not a whole number of milliseconds from 0 to 10000`);
    return createScriptedModel({ chunkDelayMs });
  }
  if (choice.startsWith("openai:")) {
    const model = choice.slice("openai:".length).trim();
    if (!model) throw new ModelConfigError(`PARLEY_MODEL=openai: needs a model name, for example openai:gpt-4o-mini`);
    return createOpenAIModel({
      model,
      name: `openai:${model}`,
      baseURL: requireBaseURL(env.OPENAI_BASE_URL?.trim() || OPENAI_DEFAULT_BASE_URL),
      apiKey: requireKey(env, "OPENAI_API_KEY", choice),
      keyVariable: "OPENAI_API_KEY",
    });
  }
  if (choice === "deepseek" || choice.startsWith("deepseek:")) {
    const model = choice.slice("deepseek:".length).trim() || DEEPSEEK_DEFAULT_MODEL;
    return createOpenAIModel({
      model,
      name: `deepseek:${model}`,
      baseURL: DEEPSEEK_BASE_URL,
      apiKey: requireKey(env, "DEEPSEEK_API_KEY", choice),
      keyVariable: "DEEPSEEK_API_KEY",
    });
  }
  throw new ModelConfigError(
    `PARLEY_MODEL=${choice} is not a known model; use "scripted", "deepseek" or "openai:<model>"`,
  );
}

/** The start-up log line's fields: the model's name and, for a remote model, its base URL (never a key). */
export function describeModel(model: Model): { model: string; baseUrl: string | null } {
  const baseURL = "baseURL" in model && typeof model.baseURL === "string" ? model.baseURL : null;
  return { model: model.name, baseUrl: baseURL === null ? null : displayURL(baseURL) };
}
