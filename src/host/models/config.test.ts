import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createModelFromEnv, describeModel, ModelConfigError } from "./config";
import { startFakeOpenAIServer, textReply, type FakeOpenAIServer } from "../../testing/fake-openai-server";
import type { ModelEvent } from "./types";

let server: FakeOpenAIServer;

beforeEach(async () => {
  server = await startFakeOpenAIServer();
});

afterEach(async () => {
  await server.close();
});

async function collect(events: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const seen: ModelEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe("createModelFromEnv", () => {
  it("keeps the scripted model as the default", () => {
    expect(describeModel(createModelFromEnv({}))).toEqual({ model: "scripted", baseUrl: null });
    expect(describeModel(createModelFromEnv({ PARLEY_MODEL: "scripted", OPENAI_API_KEY: "sk-x" }))).toEqual({
      model: "scripted",
      baseUrl: null,
    });
  });

  it("talks to OPENAI_BASE_URL with OPENAI_API_KEY and the named model for openai:<model>", async () => {
    server.enqueue(textReply("hi"));
    const model = createModelFromEnv({
      PARLEY_MODEL: "openai:fake-model",
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: "test-key",
    });

    const events = await collect(model.step({ history: [{ role: "user", text: "Hello" }], tools: [], signal: new AbortController().signal }));

    expect(events).toEqual([{ type: "text", delta: "hi" }]);
    expect(describeModel(model)).toEqual({ model: "openai:fake-model", baseUrl: server.baseURL });
    expect(server.requests.map((request) => [request.path, request.authorization, (request.body as { model: string }).model])).toEqual([
      ["/v1/chat/completions", "Bearer test-key", "fake-model"],
    ]);
  });

  it("uses OpenAI's own base URL when OPENAI_BASE_URL is not set", () => {
    expect(describeModel(createModelFromEnv({ PARLEY_MODEL: "openai:gpt-4o-mini", OPENAI_API_KEY: "sk-secret" }))).toEqual({
      model: "openai:gpt-4o-mini",
      baseUrl: "https://api.openai.com/v1",
    });
  });

  it("implies DeepSeek's base URL and deepseek-chat for PARLEY_MODEL=deepseek, and takes another DeepSeek model by name", () => {
    expect(describeModel(createModelFromEnv({ PARLEY_MODEL: "deepseek", DEEPSEEK_API_KEY: "sk-deep" }))).toEqual({
      model: "deepseek:deepseek-chat",
      baseUrl: "https://api.deepseek.com",
    });
    expect(describeModel(createModelFromEnv({ PARLEY_MODEL: "deepseek:deepseek-reasoner", DEEPSEEK_API_KEY: "sk-deep" }))).toEqual({
      model: "deepseek:deepseek-reasoner",
      baseUrl: "https://api.deepseek.com",
    });
  });

  it("refuses to start without the key, naming the variable to set", () => {
    expect(() => createModelFromEnv({ PARLEY_MODEL: "openai:gpt-4o-mini" })).toThrow(
      new ModelConfigError(
        "PARLEY_MODEL=openai:gpt-4o-mini needs OPENAI_API_KEY: set it to your API key (any non-empty value for a local server that ignores keys)",
      ),
    );
    expect(() => createModelFromEnv({ PARLEY_MODEL: "deepseek", DEEPSEEK_API_KEY: "  ", OPENAI_API_KEY: "sk-other" })).toThrow(
      new ModelConfigError(
        "PARLEY_MODEL=deepseek needs DEEPSEEK_API_KEY: set it to your API key (any non-empty value for a local server that ignores keys)",
      ),
    );
  });

  it("refuses an unknown model, an empty openai model name and a base URL that is not http(s)", () => {
    expect(() => createModelFromEnv({ PARLEY_MODEL: "claude" })).toThrow(
      new ModelConfigError('PARLEY_MODEL=claude is not a known model; use "scripted", "deepseek" or "openai:<model>"'),
    );
    expect(() => createModelFromEnv({ PARLEY_MODEL: "openai:", OPENAI_API_KEY: "k" })).toThrow(
      new ModelConfigError("PARLEY_MODEL=openai: needs a model name, for example openai:gpt-4o-mini"),
    );
    expect(() => createModelFromEnv({ PARLEY_MODEL: "openai:m", OPENAI_API_KEY: "k", OPENAI_BASE_URL: "127.0.0.1:11434/v1" })).toThrow(
      new ModelConfigError("OPENAI_BASE_URL must be an http(s) URL such as http://127.0.0.1:11434/v1"),
    );
  });

  it("never shows the key or URL credentials in the model's name or description", () => {
    const model = createModelFromEnv({
      PARLEY_MODEL: "openai:m",
      OPENAI_API_KEY: "sk-very-secret",
      OPENAI_BASE_URL: "https://user:sk-very-secret@llm.example.com/v1/",
    });

    expect(describeModel(model)).toEqual({ model: "openai:m", baseUrl: "https://llm.example.com/v1" });
    expect(JSON.stringify(describeModel(model))).not.toContain("sk-very-secret");
  });
});
