import fc from "fast-check";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnswerItem, QuestionItem } from "../../protocol/schemas";
import type { RunningServer } from "../server";
import { answeredBatch } from "../../testing/host/answer-arbitraries";
import { api, type FrameClient } from "../../testing/host/harness";
import { createFrontDoor, nextQuestion } from "../../testing/host/mcp-front-door";
import { createAskUserQuestionTool } from "../tools/ask-user-question";
import { createToolRegistry } from "../tools/registry";
import { createUserInteraction } from "../pending/user-interaction";

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

/** The model's arguments for a batch: snake_case, as a client sends them. */
function toArgs(questions: QuestionItem[]) {
  return {
    questions: questions.map((item) => ({
      id: item.id,
      question: item.question,
      ...(item.options ? { options: item.options.map((option) => ({ label: option.label })) } : {}),
      ...(item.multiSelect ? { multi_select: true } : {}),
    })),
  };
}

/** What the built-in agent's tool returns when the human gives `answers`. */
async function builtInText(args: unknown, answers: AnswerItem[]): Promise<string> {
  const seam = createUserInteraction({ ask: async () => ({ answers }) });
  const registry = createToolRegistry();
  registry.register(createAskUserQuestionTool(seam));
  return (await registry.execute("ask_user_question", args, { signal: new AbortController().signal, sessionId: "built-in" })).text;
}

describe("MCP result text equals the built-in agent's", { timeout: 120_000 }, () => {
  let server: RunningServer;
  let socket: FrameClient;
  let client: Client;
  const door = createFrontDoor({ name: "property-agent" });
  beforeAll(async () => {
    ({ server, socket } = await door.start({ rateLimits: false }));
    ({ client } = await door.mcpClient(server.url));
  });
  afterAll(() => door.closeAll());

  it("for any valid batch and any valid answer", async () => {
    await fc.assert(
      fc.asyncProperty(answeredBatch, async ([questions, answers]) => {
        const args = toArgs(questions);
        const from = socket.frames.length;
        const call = client.callTool({ name: "ask_user_question", arguments: args });
        const frame = await nextQuestion(socket, from);
        const receipt = await api(server.url, "/api/respond", { json: { type: "answer", rpcId: frame.rpcId, sessionId: frame.sessionId, answers } });
        expect(receipt.body).toEqual({ accepted: true });
        expect(await call).toEqual({ content: [{ type: "text", text: await builtInText(args, answers) }] });
      }),
      { numRuns: RUNS },
    );
  });
});
