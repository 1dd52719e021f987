import type { CreateElicitationResponse, JsonRpcId, RequestPermissionResponse, SessionUpdate } from "@agentclientprotocol/sdk";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AcpAgentProcess } from "./client";
import { minimalEnv } from "./child-io";
import { AcpAgentError, type AcpAgentOptions, type AcpAgentStatus, type AcpEvents, type ElicitationAsk, type PermissionAsk } from "./types";
import type { AcpAgentConfig } from "./config";
import { TEST_AGENT_ARGS } from "../../testing/acp/test-agent";
import type { LogEntry } from "../log";
import { createTempDirs } from "../../testing/host/temp-dirs";

const { make: tempDir, removeAll: removeTempDirs } = createTempDirs("parley-acp-client-");
const agents: AcpAgentProcess[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.stop(0)));
  removeTempDirs();
});

function config(env: Record<string, string> = {}, extra: Partial<AcpAgentConfig> = {}): AcpAgentConfig {
  return { name: "test", title: "Test Agent", command: process.execPath, args: TEST_AGENT_ARGS, env, disabled: false, ...extra };
}

function start(env: Record<string, string> = {}, options: Partial<AcpAgentOptions> = {}, extra: Partial<AcpAgentConfig> = {}) {
  const logs: LogEntry[] = [];
  const agent = new AcpAgentProcess(config(env, extra), { log: (entry) => logs.push(entry), cwd: tempDir(), ...options });
  agents.push(agent);
  return { agent, logs };
}

/** Events that record everything and answer through the given functions (else: never). */
function recorder(answers: { permission?: (ask: PermissionAsk) => Promise<RequestPermissionResponse>; elicit?: (ask: ElicitationAsk) => Promise<CreateElicitationResponse> } = {}) {
  const updates: SessionUpdate[] = [];
  const cancelled: JsonRpcId[] = [];
  const exits: { reason: string; stderrTail: string[] }[] = [];
  const stops = { count: 0 };
  const permissions: PermissionAsk[] = [];
  const forms: ElicitationAsk[] = [];
  const waiters: (() => void)[] = [];
  const notify = () => waiters.splice(0).forEach((wake) => wake());
  const events: AcpEvents = {
    update: (update) => {
      updates.push(update);
      notify();
    },
    askPermission: (ask) => {
      permissions.push(ask);
      notify();
      return answers.permission ? answers.permission(ask) : new Promise(() => undefined);
    },
    elicit: (ask) => {
      forms.push(ask);
      notify();
      return answers.elicit ? answers.elicit(ask) : new Promise(() => undefined);
    },
    requestCancelled: (id) => {
      cancelled.push(id);
      notify();
    },
    exited: (reason, stderrTail) => {
      exits.push({ reason, stderrTail });
      notify();
    },
    stopped: () => {
      stops.count++;
      notify();
    },
  };
  /** Resolves once `check` holds, re-checked on every event. */
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  const said = () => updates.map((update) => (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text" ? update.content.text : "")).join("");
  return { events, updates, cancelled, exits, stops, permissions, forms, until, said };
}

function untilStatus(agent: AcpAgentProcess, check: (status: AcpAgentStatus) => boolean): Promise<AcpAgentStatus> {
  return new Promise((resolve) => {
    if (check(agent.status())) return resolve(agent.status());
    const stop = agent.onStatus((status) => {
      if (!check(status)) return;
      stop();
      resolve(status);
    });
  });
}

describe("AcpAgentProcess over stdio with the test agent", { timeout: 180_000 }, () => {
  it("starts with a minimal environment, reports ready with loadSession and modes, and sets the asking mode at session/new", async () => {
    const { agent } = start({ OWN_KEY: "mine" }, { hostEnv: { PATH: process.env.PATH, HOME: "/home/x", PARLEY_TOKEN: "secret-token-123456", OTHER_AGENT_KEY: "theirs" } });
    expect(agent.status().state).toBe("idle");
    await agent.start();
    expect(agent.status()).toEqual({ name: "test", title: "Test Agent", state: "ready", loadSession: true });
    const events = recorder();
    const session = await agent.newSession(tempDir(), { events: events.events });
    expect(session.modes?.currentModeId).toBe("default");
    expect(agent.modeOf(session.sessionId)).toBe("default");
    expect(agent.status().modes?.map((mode) => mode.id)).toEqual(["default", "auto"]);
    expect(await agent.prompt(session.sessionId, "/env")).toBe("end_turn");
    const names = JSON.parse(events.said().replace(/^env: /, "")) as string[];
    expect(names).toContain("OWN_KEY");
    expect(names).toContain("HOME");
    expect(names).not.toContain("PARLEY_TOKEN");
    expect(names).not.toContain("OTHER_AGENT_KEY");
  });

  it("keeps the agent's mode when asked to, and switches it with setMode", async () => {
    const { agent } = start();
    const events = recorder();
    const { sessionId } = await agent.newSession(tempDir(), { events: events.events, mode: "auto" });
    expect(agent.modeOf(sessionId)).toBe("auto");
    await agent.prompt(sessionId, "/permission edit");
    expect(events.permissions).toEqual([]);
    expect(events.said()).toBe("auto: edit done without asking");
    await agent.setMode(sessionId, "default");
    expect(events.updates.at(-1)).toEqual({ sessionUpdate: "current_mode_update", currentModeId: "default" });
  });

  it("starts a session whose mode the agent offers no longer in a mode that asks, with no default either, and fails every start when it offers none [acp-modes]", async () => {
    const stateDir = tempDir();
    const cwd = tempDir();
    const first = start({ TEST_AGENT_STATE_DIR: stateDir });
    const { sessionId } = await first.agent.newSession(cwd, { events: recorder().events });
    await first.agent.stop(0);
    // Offering auto (its start mode, which never asks) and plan: the chat's "ask" is gone, so it runs in plan.
    const second = start({ TEST_AGENT_STATE_DIR: stateDir, TEST_AGENT_MODE_IDS: "auto,plan" });
    await second.agent.resumeSession(sessionId, cwd, { events: recorder().events, mode: "ask" });
    expect(second.agent.modeOf(sessionId)).toBe("plan");
    expect(second.logs.filter((entry) => entry.event === "acp/mode-not-offered")).toEqual([{ event: "acp/mode-not-offered", agent: "test", sessionId, mode: "ask" }]);
    await second.agent.stop(0);
    // A fresh chat of such an agent never starts in its own start mode.
    const fresh = await second.agent.newSession(tempDir(), { events: recorder().events });
    expect(second.agent.modeOf(fresh.sessionId)).toBe("plan");
    await second.agent.stop(0);

    const { agent, logs } = start({ TEST_AGENT_STATE_DIR: stateDir, TEST_AGENT_MODE_IDS: "auto,yolo" });
    for (let attempt = 0; attempt < 2; attempt++) {
      const failed = await agent.resumeSession(sessionId, cwd, { events: recorder().events, mode: "ask" }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failed).toBeInstanceOf(AcpAgentError);
      expect([(failed as AcpAgentError).code, (failed as AcpAgentError).message]).toEqual(["MODE_UNAVAILABLE", "Test Agent offers no mode that asks before it acts (it offers auto, yolo)"]);
    }
    expect(agent.modeOf(sessionId)).toBeNull();
    expect(logs.filter((entry) => entry.event === "acp/load-failed")).toEqual([]);
  });

  it("passes a permission request with its diff to askPermission and the answer back to the agent", async () => {
    const { agent } = start();
    const events = recorder({ permission: async () => ({ outcome: { outcome: "selected", optionId: "cancel" }, _meta: { parley: { reason: "not now" } } }) });
    const { sessionId } = await agent.newSession(tempDir(), { events: events.events });
    expect(await agent.prompt(sessionId, "/permission edit")).toBe("end_turn");
    const [ask] = events.permissions;
    expect(ask?.sessionId).toBe(sessionId);
    expect(ask?.request.toolCall).toMatchObject({ title: "Edit src/app.ts", kind: "edit", content: [{ type: "diff", newText: "const a = 1;\nconst b = 3;\n" }] });
    expect(ask?.request.options.map((option) => option.kind)).toEqual(["allow_always", "reject_once", "allow_once", "reject_always"]);
    expect(events.said()).toBe('permission: {"outcome":{"outcome":"selected","optionId":"cancel"},"_meta":{"parley":{"reason":"not now"}}}');
    expect(events.updates.map((update) => update.sessionUpdate)).toEqual(["current_mode_update", "tool_call", "tool_call_update", "agent_message_chunk"]);
  });

  it("streams every update kind in order", async () => {
    const { agent } = start();
    const events = recorder();
    const { sessionId } = await agent.newSession(tempDir(), { events: events.events });
    events.updates.length = 0;
    await agent.prompt(sessionId, "/stream");
    expect(events.updates.map((update) => update.sessionUpdate)).toEqual([
      "agent_thought_chunk",
      "plan",
      "agent_message_chunk",
      "tool_call",
      "tool_call_update",
      "tool_call",
      "tool_call_update",
      "available_commands_update",
      "current_mode_update",
      "session_info_update",
      "usage_update",
      "agent_message_chunk",
    ]);
  });

  it("Stop with a Qwen question open: the turn ends cancelled and the request is retired, though the agent leaves it open", async () => {
    const { agent } = start();
    const events = recorder();
    const { sessionId } = await agent.newSession(tempDir(), { events: events.events });
    const turn = agent.prompt(sessionId, "/qwen-question");
    await events.until(() => events.permissions.length === 1);
    const [ask] = events.permissions;
    expect(ask?.request.toolCall._meta).toMatchObject({ qwenInteractionKind: "user_question" });
    await agent.cancel(sessionId);
    expect(await turn).toBe("cancelled");
    expect(ask?.signal.aborted).toBe(true);
    expect(events.cancelled).toEqual([ask?.requestId]);
  });

  it("retires a request the agent withdraws with $/cancel_request", async () => {
    const { agent } = start();
    const events = recorder();
    const { sessionId } = await agent.newSession(tempDir(), { events: events.events });
    await agent.prompt(sessionId, "/withdraw");
    // The withdrawal may reach the client before its handler ran (then nothing is shown) or after.
    expect(events.cancelled).toEqual(events.permissions.map((ask) => ask.requestId));
    expect(events.permissions.every((ask) => ask.signal.aborted)).toBe(true);
    expect(events.said()).toBe('withdrawn: {"outcome":{"outcome":"cancelled"}}');
  });

  it("passes an elicitation form to elicit and its content back", async () => {
    const { agent } = start();
    const events = recorder({ elicit: async () => ({ action: "accept", content: { question_0: "red", question_1: ["s", "l"] } }) });
    const { sessionId } = await agent.newSession(tempDir(), { events: events.events });
    await agent.prompt(sessionId, "/elicit");
    expect(Object.keys(events.forms[0]?.request.requestedSchema.properties ?? {})).toEqual(["question_0", "question_0_custom", "question_1", "question_1_custom", "reviewer"]);
    expect(events.said()).toBe('elicitation: {"action":"accept","content":{"question_0":"red","question_1":["s","l"]}}');
  });

  it("survives garbage on stdout, unknown updates and a flood of unknown requests, answering each -32601", async () => {
    const { agent, logs } = start();
    const events = recorder();
    const { sessionId } = await agent.newSession(tempDir(), { events: events.events });
    await agent.prompt(sessionId, "/garbage");
    await agent.prompt(sessionId, "/unknown-update");
    await agent.prompt(sessionId, "/flood 300");
    expect(events.said()).toBe("still hereafter unknownflood: 300 errors");
    expect(logs.filter((entry) => entry.event === "acp/garbage").length).toBeGreaterThan(0);
    expect(logs.find((entry) => entry.event === "acp/unknown-update")).toMatchObject({ kind: "_test_sparkles" });
    expect(logs.filter((entry) => entry.event === "acp/unknown-request")).toHaveLength(300);
    expect(agent.status().state).toBe("ready");
  });

  it("takes a 10 MB diff, and drops a line over its bound without stopping", async () => {
    const { agent } = start();
    const events = recorder();
    const { sessionId } = await agent.newSession(tempDir(), { events: events.events });
    await agent.prompt(sessionId, `/big ${10 * 1024 * 1024}`);
    const big = events.updates.find((update) => update.sessionUpdate === "tool_call");
    expect(big?.sessionUpdate === "tool_call" && big.content?.[0]?.type === "diff" && big.content[0].newText.length).toBe(10 * 1024 * 1024);

    const small = start({}, { maxLineBytes: 64 * 1024 });
    const smallEvents = recorder();
    const opened = await small.agent.newSession(tempDir(), { events: smallEvents.events });
    await small.agent.prompt(opened.sessionId, "/big 100000");
    expect(smallEvents.updates.some((update) => update.sessionUpdate === "tool_call")).toBe(false);
    expect(smallEvents.said()).toBe("big: 100000");
    expect(small.logs.find((entry) => entry.event === "acp/line-too-long")).toMatchObject({ request: false });
    // A request over the bound whose id JSON cannot read is dropped like any long line: the host is not hurt.
    await small.agent.prompt(opened.sessionId, "/long-request 100000");
    expect(smallEvents.said()).toBe("big: 100000still here");
    expect(small.logs.filter((entry) => entry.event === "acp/line-too-long")).toEqual([
      { event: "acp/line-too-long", agent: "test", limit: 64 * 1024, request: false },
      { event: "acp/line-too-long", agent: "test", limit: 64 * 1024, request: false },
    ]);
    expect(small.agent.status().state).toBe("ready");
  });

  it("a crash mid-turn: the prompt fails, open sessions hear it with the stderr tail, the state is failed, and the next session restarts it", async () => {
    const { agent } = start();
    const events = recorder();
    const { sessionId } = await agent.newSession(tempDir(), { events: events.events });
    const failed = untilStatus(agent, (status) => status.state === "failed");
    await expect(agent.prompt(sessionId, "/crash")).rejects.toMatchObject({ code: "AGENT_EXITED" });
    const status = await failed;
    expect(status.error).toContain("the agent exited with code 3");
    expect(status.stderrTail).toEqual(["panic: the test agent crashed", "at step 2", "exit now"]);
    expect(events.exits).toEqual([{ reason: "the agent exited with code 3", stderrTail: ["panic: the test agent crashed", "at step 2", "exit now"] }]);
    await expect(agent.prompt(sessionId, "hello")).rejects.toMatchObject({ code: "UNKNOWN_SESSION" });
    const again = await agent.newSession(tempDir(), { events: recorder().events });
    expect(again.sessionId).toBeTruthy();
    expect(agent.status().state).toBe("ready");
  });

  it("resumes a session after a restart with session/load when the agent supports it, else with a fresh session", async () => {
    const state = tempDir();
    const { agent } = start({ TEST_AGENT_STATE_DIR: state });
    const cwd = tempDir();
    const first = recorder();
    const { sessionId } = await agent.newSession(cwd, { events: first.events });
    await agent.prompt(sessionId, "remember me");
    await agent.stop();
    expect(agent.status().state).toBe("idle");
    const second = recorder();
    const resumed = await agent.resumeSession(sessionId, cwd, { events: second.events });
    expect(resumed).toMatchObject({ sessionId, restored: true });
    expect(second.updates[0]).toEqual({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "remember me" } });
    await agent.prompt(sessionId, "/memory");
    expect(second.said()).toBe('memory: ["remember me"]');
    expect(agent.modeOf(sessionId)).toBe("default");

    const plain = start({ TEST_AGENT_LOAD_SESSION: "0" });
    const opened = await plain.agent.newSession(cwd, { events: recorder().events });
    await plain.agent.stop();
    const fresh = await plain.agent.resumeSession(opened.sessionId, cwd, { events: recorder().events });
    expect(fresh.restored).toBe(false);
    expect(plain.agent.status().loadSession).toBe(false);
  });

  it("fails an agent that never answers initialize, one that cannot start, and refuses a disabled one", async () => {
    const silent = start({ TEST_AGENT_NO_INIT: "1" }, { initializeTimeoutMs: 300 });
    await expect(silent.agent.start()).rejects.toMatchObject({ code: "AGENT_FAILED", message: "did not answer initialize within 300 ms" });
    expect(silent.agent.status()).toMatchObject({ state: "failed", error: "did not answer initialize within 300 ms" });
    expect(silent.agent.pid).toBeUndefined();

    const missing = start({}, {}, { command: "/nonexistent/agent-binary" });
    await expect(missing.agent.start()).rejects.toBeInstanceOf(AcpAgentError);
    expect(missing.agent.status().state).toBe("failed");
    expect(missing.agent.status().error).toContain("cannot start /nonexistent/agent-binary");

    const disabled = start({}, {}, { disabled: true });
    expect(disabled.agent.status().state).toBe("disabled");
    await expect(disabled.agent.start()).rejects.toMatchObject({ code: "AGENT_DISABLED" });
  });

  it("stops an idle process and starts it again on the next use", async () => {
    const { agent } = start({}, { idleMs: 50 });
    const events = recorder();
    await agent.newSession(tempDir(), { events: events.events });
    await untilStatus(agent, (status) => status.state === "idle");
    expect(agent.pid).toBeUndefined();
    // Its session heard that it stopped, not that it failed.
    expect([events.stops.count, events.exits]).toEqual([1, []]);
    await agent.newSession(tempDir(), { events: events.events });
    expect(agent.status().state).toBe("ready");
  });
});

describe("AcpAgentProcess with an agent that relaunches itself", { timeout: 120_000 }, () => {
  /** Whether a process is there (a zombie awaiting its reaper counts as gone). */
  function running(pid: number): boolean {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  }

  it.skipIf(process.platform !== "linux")("stop ends the relaunched child too, before it resolves, though the child would linger", async () => {
    const pidFile = path.join(tempDir(), "child.pid");
    const { agent } = start({ TEST_AGENT_RELAUNCH: "1", TEST_AGENT_PID_FILE: pidFile, TEST_AGENT_LINGER_MS: "30000" });
    const events = recorder();
    await agent.newSession(tempDir(), { events: events.events });
    const wrapper = agent.pid!;
    const child = Number(readFileSync(pidFile, "utf8"));
    expect(child).not.toBe(wrapper);
    expect([running(wrapper), running(child)]).toEqual([true, true]);
    await agent.stop();
    expect([running(wrapper), running(child), agent.status().state]).toEqual([false, false, "idle"]);
  });

  // The child would outlive the test's bound by far on its own.
  it.skipIf(process.platform !== "linux")("a wrapper that dies leaves no child behind: the agent fails and its group is killed", { timeout: 60_000 }, async () => {
    const pidFile = path.join(tempDir(), "child.pid");
    const { agent } = start({ TEST_AGENT_RELAUNCH: "1", TEST_AGENT_PID_FILE: pidFile, TEST_AGENT_LINGER_MS: "600000" });
    const events = recorder();
    await agent.newSession(tempDir(), { events: events.events });
    const wrapper = agent.pid!;
    const child = Number(readFileSync(pidFile, "utf8"));
    process.kill(wrapper, "SIGKILL");
    await untilStatus(agent, (status) => status.state === "failed");
    await expect.poll(() => running(child), { timeout: 10_000 }).toBe(false);
  });
});

describe("minimalEnv", () => {
  it("passes only the basics of the host's environment, then the agent's own", () => {
    expect(minimalEnv({ PATH: "/bin", HOME: "/h", LANG: "C.UTF-8", PARLEY_TOKEN: "t", OPENAI_API_KEY: "k", TMPDIR: "/t" }, { OPENAI_API_KEY: "own", PATH: "/opt/bin" })).toEqual({
      PATH: "/opt/bin",
      HOME: "/h",
      LANG: "C.UTF-8",
      TMPDIR: "/t",
      OPENAI_API_KEY: "own",
    });
  });
});

describe("a start while the process is being stopped", () => {
  it("waits for the stop, then starts another process that takes the work; after close nothing starts", async () => {
    const { agent } = start();
    const cwd = tempDir();
    await agent.newSession(cwd, { events: recorder().events });
    const before = agent.pid;
    const stopping = agent.stop();
    const events = recorder();
    const opened = await agent.newSession(cwd, { events: events.events });
    await stopping;
    expect(agent.pid).not.toBe(before);
    expect(agent.status().state).toBe("ready");
    await agent.prompt(opened.sessionId, "hello");
    expect(events.said()).toBe("echo: hello");

    await agent.close();
    expect(agent.status().state).toBe("idle");
    await expect(agent.newSession(cwd, { events: recorder().events })).rejects.toEqual(new AcpAgentError("AGENT_EXITED", "Test Agent stopped: Parley is stopping"));
  });
});

describe("a request the agent does not answer in time", () => {
  it("ends a process that works on no prompt, but not one busy with a prompt: that request alone fails", async () => {
    const { agent } = start({ TEST_AGENT_REFUSE_MODE: "ignore-once" }, { openTimeoutMs: 300 });
    const events = recorder();
    const { sessionId } = await agent.newSession(tempDir(), { events: events.events });
    await agent.prompt(sessionId, "hello");
    const before = agent.pid;
    const hanging = agent.prompt(sessionId, "/hang");
    await expect(agent.setMode(sessionId, "auto")).rejects.toEqual(new AcpAgentError("AGENT_FAILED", "Test Agent did not answer session/set_mode within 300 ms"));
    expect([agent.status().state, agent.pid]).toEqual(["ready", before]);
    await agent.cancel(sessionId);
    expect(await hanging).toBe("cancelled");
  });
});
