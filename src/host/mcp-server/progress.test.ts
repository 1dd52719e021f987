import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { api } from "../../testing/host/harness";
import { createFrontDoor, nextQuestion } from "../../testing/host/mcp-front-door";
import { PROGRESS_INTERVAL_MS, startProgress, type ProgressParams } from "./progress";

describe("startProgress", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sends 'waiting for the human' every 15 s, counting from 1, until stopped", async () => {
    vi.useFakeTimers();
    const sent: ProgressParams[] = [];
    const stop = startProgress("tok", async (params) => void sent.push(params), (error) => {
      throw error;
    });
    await vi.advanceTimersByTimeAsync(PROGRESS_INTERVAL_MS - 1);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1 + 2 * PROGRESS_INTERVAL_MS);
    expect(sent).toEqual([
      { progressToken: "tok", progress: 1, message: "waiting for the human" },
      { progressToken: "tok", progress: 2, message: "waiting for the human" },
      { progressToken: "tok", progress: 3, message: "waiting for the human" },
    ]);
    stop();
    await vi.advanceTimersByTimeAsync(10 * PROGRESS_INTERVAL_MS);
    expect(sent).toHaveLength(3);
  });

  it("sends nothing when the client gave no progress token", async () => {
    vi.useFakeTimers();
    const send = vi.fn(async () => undefined);
    startProgress(undefined, send, () => undefined);
    await vi.advanceTimersByTimeAsync(5 * PROGRESS_INTERVAL_MS);
    expect(send).not.toHaveBeenCalled();
  });

  it("reports a failed send and keeps ticking", async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    const failure = new Error("stream closed");
    const stop = startProgress(7, () => Promise.reject(failure), (error) => void errors.push(error));
    await vi.advanceTimersByTimeAsync(2 * PROGRESS_INTERVAL_MS);
    expect(errors).toEqual([failure, failure]);
    stop();
  });
});

describe("progress over /mcp", { timeout: 30_000 }, () => {
  const door = createFrontDoor({ name: "test-agent" });
  afterEach(() => door.closeAll());

  it("notifies a waiting call's progress token until the human answers, so a client that resets its timeout on progress never gives up", async () => {
    const { server, socket } = await door.start({ mcp: { progressIntervalMs: 25 } });
    const { client } = await door.mcpClient(server.url);
    const seen: Progress[] = [];
    const call = client.callTool({ name: "ask_user_question", arguments: { questions: [{ id: "q", question: "Ready?" }] } }, undefined, {
      onprogress: (progress) => void seen.push(progress),
      timeout: 1_000,
      resetTimeoutOnProgress: true,
    });
    const frame = await nextQuestion(socket);
    await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(60), { timeout: 15_000, interval: 20 });
    await api(server.url, "/api/respond", { json: { type: "answer", rpcId: frame.rpcId, sessionId: frame.sessionId, answers: [{ id: "q", selected: [], custom: "yes" }] } });
    expect(await call).toEqual({ content: [{ type: "text", text: '{"answers":[{"id":"q","selected":[],"custom":"yes"}]}' }] });
    expect(seen.slice(0, 3)).toEqual([1, 2, 3].map((progress) => ({ progress, message: "waiting for the human" })));
  });
});
