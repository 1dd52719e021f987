import { afterEach, describe, expect, it } from "vitest";
import type { QuestionRequestedFrame } from "../../protocol/schemas";
import { api } from "../../testing/host/harness";
import { createFrontDoor } from "../../testing/host/mcp-front-door";
import { toolParameters } from "../tools/registry";
import { WAIT_TOOL_DESCRIPTION, WaitArgs } from "./tools";

const door = createFrontDoor({ name: "hard-timeout-agent" });
afterEach(() => door.closeAll());

async function start(waitSeconds: number | null, mcp: { idleTimeoutMs?: number; maxCallsPerSession?: number } = {}) {
  const { server, socket } = await door.start({ mcp: { waitSeconds, ...mcp } });
  const { client } = await door.mcpClient(server.url);
  return { server, socket, client };
}

const ASK = { questions: [{ id: "db", question: "Which database?", options: [{ label: "SQLite" }, { label: "Postgres" }] }] };

function waiting(ticket: string) {
  return {
    content: [
      {
        type: "text",
        text: `{"status":"waiting","ticket":"${ticket}"}\nThe human has not answered yet; the question stays on their screen. Call ask_user_question_wait with {"ticket":"${ticket}"} to keep waiting for the answer. Do not ask again.`,
      },
    ],
  };
}

function unknown(ticket: string) {
  return {
    content: [
      {
        type: "text",
        text: `Error: no question in this session is waiting under ticket "${ticket}" (its answer was already returned, it was aborted, or the ticket was never issued here)\n{"name":"ToolError","code":"UNKNOWN_TICKET"}`,
      },
    ],
    isError: true,
  };
}

describe("PARLEY_MCP_WAIT_S tickets", { timeout: 30_000 }, () => {
  it("does not list the wait tool when tickets are off", async () => {
    const { client } = await start(null);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["ask_user_question", "present_plan"]);
  });

  it("lists ask_user_question_wait with its schema when tickets are on", async () => {
    const { client } = await start(0.05);
    const { tools } = await client.listTools();
    expect(tools.at(-1)).toEqual({ name: "ask_user_question_wait", description: WAIT_TOOL_DESCRIPTION, inputSchema: toolParameters(WaitArgs) });
  });

  it("returns a waiting ticket named by the rpcId, waits again on the same pending question, and returns the answer, again to a wait sent again within the idle timeout, then forgets it", async () => {
    const { server, socket, client } = await start(0.3, { idleTimeoutMs: 1500 });
    const first = await client.callTool({ name: "ask_user_question", arguments: ASK });
    const frame = await socket.waitFor<QuestionRequestedFrame>((item) => item.type === "question/requested");
    expect(first).toEqual(waiting(frame.rpcId));

    expect(await client.callTool({ name: "ask_user_question_wait", arguments: { ticket: frame.rpcId } })).toEqual(waiting(frame.rpcId));
    const slice = client.callTool({ name: "ask_user_question_wait", arguments: { ticket: frame.rpcId } });
    await api(server.url, "/api/respond", { json: { type: "answer", rpcId: frame.rpcId, sessionId: frame.sessionId, answers: [{ id: "db", selected: ["SQLite"] }] } });
    const answered = { content: [{ type: "text", text: '{"answers":[{"id":"db","selected":["SQLite"]}]}' }] };
    expect(await slice).toEqual(answered);
    // A wait sent again (the first one's answer lost on the way, a stream cut as it was written) gets the same answer.
    expect(await client.callTool({ name: "ask_user_question_wait", arguments: { ticket: frame.rpcId } })).toEqual(answered);
    await expect.poll(() => client.callTool({ name: "ask_user_question_wait", arguments: { ticket: frame.rpcId } }), { timeout: 10_000, interval: 200 }).toEqual(unknown(frame.rpcId));
    expect(socket.frames.filter((item) => item.type === "question/requested")).toHaveLength(1);
    expect(socket.frames.filter((item) => item.type === "question/resolved")).toEqual([{ type: "question/resolved", rpcId: frame.rpcId, sessionId: frame.sessionId, outcome: "answered" }]);
  });

  it("frees a ticket's place in the session's calls once a wait returned its answer", async () => {
    const { server, socket, client } = await start(0.05, { maxCallsPerSession: 1 });
    await client.callTool({ name: "ask_user_question", arguments: ASK });
    const frame = await socket.waitFor<QuestionRequestedFrame>((item) => item.type === "question/requested");
    await api(server.url, "/api/respond", { json: { type: "answer", rpcId: frame.rpcId, sessionId: frame.sessionId, answers: [{ id: "db", selected: ["SQLite"] }] } });
    expect(await client.callTool({ name: "ask_user_question_wait", arguments: { ticket: frame.rpcId } })).toEqual({ content: [{ type: "text", text: '{"answers":[{"id":"db","selected":["SQLite"]}]}' }] });
    const from = socket.frames.length;
    expect(await client.callTool({ name: "ask_user_question", arguments: ASK })).toMatchObject({ content: [{ type: "text", text: expect.stringContaining('{"status":"waiting"') }] });
    await socket.waitFor((item, index) => index >= from && item.type === "question/requested");
  });

  it("holds an answer given while no wait call was open until the client collects it", async () => {
    const { server, socket, client } = await start(0.05);
    await client.callTool({ name: "present_plan", arguments: { plan: "1. Migrate" } });
    const frame = await socket.waitFor<QuestionRequestedFrame>((item) => item.type === "question/requested");
    await api(server.url, "/api/respond", { json: { type: "answer", rpcId: frame.rpcId, sessionId: frame.sessionId, answers: [{ id: "plan-review", selected: ["Approve"] }, { id: "plan-note", selected: [] }] } });
    expect(await client.callTool({ name: "ask_user_question_wait", arguments: { ticket: frame.rpcId } })).toEqual({ content: [{ type: "text", text: "approved" }] });
  });

  it("answers an unknown ticket and bad wait arguments with tool errors", async () => {
    const { client } = await start(0.05);
    expect(await client.callTool({ name: "ask_user_question_wait", arguments: { ticket: "nope" } })).toEqual(unknown("nope"));
    expect(await client.callTool({ name: "ask_user_question_wait", arguments: {} })).toEqual({
      content: [{ type: "text", text: 'Error: invalid arguments: ticket: Invalid input: expected string, received undefined\n{"name":"ToolError","code":"INVALID_ARGS"}' }],
      isError: true,
    });
  });

  it("does not hand one MCP session's ticket to another", async () => {
    const { server, socket, client } = await start(0.05);
    await client.callTool({ name: "ask_user_question", arguments: ASK });
    const frame = await socket.waitFor<QuestionRequestedFrame>((item) => item.type === "question/requested");
    const { client: stranger } = await door.mcpClient(server.url, { info: { name: "stranger" } });
    expect(await stranger.callTool({ name: "ask_user_question_wait", arguments: { ticket: frame.rpcId } })).toEqual(unknown(frame.rpcId));
  });

  it("a cancelled wait call aborts the question it waited on", async () => {
    const { socket, client } = await start(0.5);
    const controller = new AbortController();
    const first = await client.callTool({ name: "ask_user_question", arguments: ASK });
    const frame = await socket.waitFor<QuestionRequestedFrame>((item) => item.type === "question/requested");
    expect(first).toEqual(waiting(frame.rpcId));
    const slice = client.callTool({ name: "ask_user_question_wait", arguments: { ticket: frame.rpcId } }, undefined, { signal: controller.signal });
    controller.abort("gave up");
    await expect(slice).rejects.toThrow("gave up");
    expect(await socket.waitFor((item) => item.type === "question/resolved")).toEqual({ type: "question/resolved", rpcId: frame.rpcId, sessionId: frame.sessionId, outcome: "aborted" });
  });

  it("expires the tickets of a session whose client keeps its stream open but stopped waiting, and frees their places", async () => {
    const { server, socket, client } = await start(0.05, { idleTimeoutMs: 300, maxCallsPerSession: 2 });
    const answered = await client.callTool({ name: "ask_user_question", arguments: ASK });
    const first = await socket.waitFor<QuestionRequestedFrame>((item) => item.type === "question/requested");
    expect(answered).toEqual(waiting(first.rpcId));
    expect(await client.callTool({ name: "ask_user_question", arguments: ASK })).toMatchObject({ content: [{ type: "text" }] });
    const second = await socket.waitFor<QuestionRequestedFrame>((item) => item.type === "question/requested" && item.rpcId !== first.rpcId);
    await api(server.url, "/api/respond", { json: { type: "answer", rpcId: first.rpcId, sessionId: first.sessionId, answers: [{ id: "db", selected: ["SQLite"] }] } });
    expect(await socket.waitFor((item) => item.type === "question/resolved" && item.rpcId === second.rpcId)).toEqual({ type: "question/resolved", rpcId: second.rpcId, sessionId: second.sessionId, outcome: "aborted" });
    // The first ticket, older, went in the same sweep or an earlier one: its answer was never collected.
    expect(await client.callTool({ name: "ask_user_question_wait", arguments: { ticket: first.rpcId } })).toEqual(unknown(first.rpcId));
    const from = socket.frames.length;
    expect(await client.callTool({ name: "ask_user_question", arguments: ASK })).toMatchObject({ content: [{ type: "text", text: expect.stringContaining('{"status":"waiting"') }] });
    await socket.waitFor((item, index) => index >= from && item.type === "question/requested");
  });
});
