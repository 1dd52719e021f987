import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { approvalAnswer, type ApprovalDecision } from "../../protocol/approval";
import type { Message, QuestionRequestedFrame, Session } from "../../protocol/schemas";
import { api, connect, until, type FrameClient } from "../../testing/host/harness";
import { removeDataDir, type HostProcess } from "../../testing/host/host-process";
import { startMcpHostProcess } from "../../testing/host/mcp-host-process";
import { postgresBinDir, startTestPostgres, type TestPostgres } from "../../testing/host/postgres";

const LEASE_S = 2;
/** Within three lease periods of a host's death every live host agrees; plus slack for a loaded machine. */
const SETTLED_MS = 3 * LEASE_S * 1000 + 8000;

describe.skipIf(postgresBinDir() === null)("an approval answered through another host just before its owner was killed [cluster-adopt]", () => {
  let postgres: TestPostgres;
  const hosts: HostProcess[] = [];
  const sockets: FrameClient[] = [];

  beforeAll(async () => {
    postgres = await startTestPostgres();
  }, 60_000);
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
    for (const host of hosts.splice(0)) {
      await host.kill("SIGKILL");
      removeDataDir(host.dataDir);
    }
  });
  afterAll(async () => {
    await postgres?.stop();
  });

  /** A host on the cluster's database with the test MCP server as `notes`, once that server is ready. */
  async function startHost(databaseUrl: string): Promise<HostProcess> {
    const host = await startMcpHostProcess({ PARLEY_DATABASE_URL: databaseUrl, PARLEY_LEASE_S: String(LEASE_S) });
    hosts.push(host);
    return host;
  }

  const cases: [string, ApprovalDecision, (tool: NonNullable<Message["tool"]>) => unknown, unknown][] = [
    ["a denial is the call's result, with its reason", { kind: "deny", reason: "not now" }, (tool) => [tool.status, tool.error?.code, tool.mcp?.approval, tool.mcp?.reason], ["error", "TOOL_DENIED", "denied", "not now"]],
    [
      "an allow is kept on the row: the call's result, or TOOL_INTERRUPTED when the owner died before it ran",
      { kind: "allow-once" },
      (tool) => [tool.status === "ok" ? "TOOL_INTERRUPTED" : tool.error?.code, tool.mcp?.approval],
      ["TOOL_INTERRUPTED", "allowed-once"],
    ],
  ];
  it.each(cases)("%s, on every live host", { timeout: 120_000 }, async (_name, decision, read, expected) => {
    const databaseUrl = await postgres.createDatabase();
    const owner = await startHost(databaseUrl);
    const other = await startHost(databaseUrl);
    const watcher = await connect(other.url);
    sockets.push(watcher);
    await watcher.waitFor((frame) => frame.type === "synced");
    const sessionId = ((await api(owner.url, "/api/sessions", { json: {} })).body as { session: Session }).session.id;
    await api(owner.url, `/api/sessions/${sessionId}/messages`, { json: { text: '/tool mcp__notes__write_note {"name":"n","text":"t"}' } });
    const asked = await watcher.waitFor<QuestionRequestedFrame>((frame) => frame.type === "question/requested" && frame.sessionId === sessionId && frame.approval !== undefined, "the approval card");
    const receipt = await api(other.url, "/api/respond", { json: { type: "answer", rpcId: asked.rpcId, sessionId, answers: approvalAnswer(decision) } });
    expect(receipt.body).toEqual({ accepted: true });
    owner.child.kill("SIGKILL");

    const tool = await until(async () => {
      const detail = (await api(other.url, `/api/sessions/${sessionId}`)).body as { session: Session; messages: Message[] };
      const row = detail.messages.find((message) => message.role === "tool")?.tool;
      return detail.session.state === "idle" && row !== undefined && row.status !== "running" ? row : undefined;
    }, "the call's row settled on the live host", SETTLED_MS);
    expect(tool.error?.code).not.toBe("ASK_ABORTED");
    expect(read(tool)).toEqual(expected);
  });
});
