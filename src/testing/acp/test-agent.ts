import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  agent,
  methods,
  PROTOCOL_VERSION,
  RequestError,
  type AgentApp,
  type AgentContext,
  type ContentBlock,
  type RequestPermissionRequest,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";
import { ANSI_OUTPUT, TEST_AGENT_MODES, TEST_ELICITATION_SCHEMA, TEST_PERMISSION_OPTIONS, TEST_QWEN_QUESTIONS } from "./test-agent-data";

/**
 * A scripted ACP agent for the tests, built with the SDK's agent side. It is deterministic: what it does
 * depends only on its environment (TestAgentOptions) and the prompt's text. A prompt that is none of the
 * commands below is echoed back as `echo: <text>`.
 *
 * | prompt | what the agent does |
 * |---|---|
 * | `/permission edit` or `/permission execute` | a tool_call, then session/request_permission for it (an edit carries a diff); replies `permission: <response JSON>` |
 * | `/permission partial` | as `/permission edit`, but the request names the call by its id, kind and status only |
 * | `/elicit` | elicitation/create with a single-select (oneOf), a multi-select (items.anyOf), the paired `question_0_custom` and an email field; replies `elicitation: <response JSON>` |
 * | `/qwen-question` | a Qwen-style user_question permission; replies `answers: <response JSON>`; on session/cancel the turn ends `cancelled` and the request stays open |
 * | `/withdraw` | session/request_permission, then `$/cancel_request` for it at once; replies `withdrawn: <response JSON>` |
 * | `/stream` | one of every session/update the client renders, then `done` |
 * | `/unknown-update` | a session/update of an unknown kind, then `after unknown` |
 * | `/crash` | a chunk, three lines on stderr, then exits with code 3 mid-turn |
 * | `/garbage` | non-JSON lines on stdout, then `still here` |
 * | `/flood N` | N requests and N notifications of unknown methods at once; replies `flood: <errors> errors` |
 * | `/big N` | a tool_call whose diff's new text is N bytes |
 * | `/long-request N` | a request line of N bytes whose id JSON cannot read (`"\\x"`), then `still here` |
 * | `/unfinished` | a tool_call left `in_progress`, then `left it running` and the turn ends |
 * | `/permission-for <id>` | session/request_permission for another of its sessions, `<id>` (as an agent working in the background does); replies `permission for <id>: <response JSON>` |
 * | `/hang` | nothing until session/cancel, then the turn ends `cancelled` |
 * | `/ignore-cancel` | `working`, then nothing, and session/cancel changes nothing: the turn never ends |
 * | `/permission-none` | session/request_permission offering no option; replies `permission: <response JSON>` |
 * | `/linger` | `working`, and session/cancel changes nothing: the turn ends (`end_turn`) only once a later turn of the session sent its permission request |
 * | (TEST_AGENT_MODE_IDS=auto,plan) | offers those modes, starting in the first |
 * | (TEST_AGENT_SESSION_GATE=<path>) | session/new is answered only once that file exists |
 * | (TEST_AGENT_REFUSE_MODE=1 or ignore-once) | session/set_mode is answered with an error once the session has had a prompt, or the first such call never answered |
 * | `/env` | replies `env: <sorted names of its environment variables>` |
 * | `/memory` | replies `memory: <the prompts this session saw, JSON>` |
 *
 * Sessions start in mode `auto` (as Qwen Code and Claude Code do), where `/permission` acts without
 * asking (`auto: edit done without asking`); session/set_mode switches between `default` and `auto`.
 */
export interface TestAgentOptions {
  /** Never answer initialize (TEST_AGENT_NO_INIT=1). */
  noInitialize?: boolean;
  /** Never answer session/new (TEST_AGENT_NO_SESSION=1). */
  noSession?: boolean;
  /** Answer session/new only once this file exists (TEST_AGENT_SESSION_GATE=<path>): a start as slow as the test wants. */
  sessionGate?: string;
  /** The modes it offers, by id, the first its start mode (TEST_AGENT_MODE_IDS=auto,plan); default `default` and `auto`, starting in `auto`. */
  modeIds?: string[];
  /**
   * Once the session has had a prompt, answer session/set_mode with an error (TEST_AGENT_REFUSE_MODE=1), or never answer
   * the first such call (TEST_AGENT_REFUSE_MODE=ignore-once).
   */
  refuseMode?: "error" | "ignore-once";
  /** Advertise and serve session/load (default true; TEST_AGENT_LOAD_SESSION=0 turns it off). */
  loadSession?: boolean;
  /** Where sessions are kept across processes, for session/load (TEST_AGENT_STATE_DIR); in memory only when unset. */
  stateDir?: string;
  /** Write lines of garbage on stdout before anything else (TEST_AGENT_START_GARBAGE=1). */
  startGarbage?: boolean;
  /** Writes raw bytes to stdout (the stdio entry passes process.stdout). */
  writeRaw?: (text: string) => void;
  /** Writes to stderr. */
  writeError?: (text: string) => void;
  /** Ends the process. */
  exit?: (code: number) => never;
  /** The environment `/env` reports. */
  env?: NodeJS.ProcessEnv;
}

interface TestSession {
  id: string;
  cwd: string;
  mode: string;
  prompts: string[];
  turn: AbortController | null;
}


function promptText(prompt: readonly ContentBlock[]): string {
  return prompt
    .map((block) => (block.type === "text" ? block.text : ""))
    .join("")
    .trim();
}

function json(value: unknown): string {
  return JSON.stringify(value);
}

/** The test agent as an SDK AgentApp; connect it to a stream (see test-agent-stdio.ts). */
export function createTestAgent(options: TestAgentOptions = {}): AgentApp {
  const loadSession = options.loadSession ?? true;
  let ignoredSetMode = false;
  const offered = options.modeIds ? { currentModeId: options.modeIds[0]!, availableModes: options.modeIds.map((id) => ({ id, name: id })) } : TEST_AGENT_MODES;
  const sessions = new Map<string, TestSession>();
  /** Turns that ignored their cancel (`/linger`), by session id: each ends when the session's next permission request is sent. */
  const lingering = new Map<string, () => void>();
  let nextSession = 1;
  const writeRaw = options.writeRaw ?? (() => undefined);
  const writeError = options.writeError ?? (() => undefined);
  const exit = options.exit ?? ((code: number) => process.exit(code));

  const stateFile = (id: string) => (options.stateDir ? path.join(options.stateDir, `${id.replace(/[^A-Za-z0-9-]/g, "_")}.json`) : null);
  const save = (session: TestSession) => {
    const file = stateFile(session.id);
    if (!file) return;
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, json({ id: session.id, cwd: session.cwd, mode: session.mode, prompts: session.prompts }));
  };
  const restore = (id: string): TestSession | null => {
    const file = stateFile(id);
    if (!file || !existsSync(file)) return null;
    const saved = JSON.parse(readFileSync(file, "utf8")) as { id: string; cwd: string; mode: string; prompts: string[] };
    return { ...saved, turn: null };
  };

  const update = (client: AgentContext, sessionId: string, change: SessionUpdate) => client.notify(methods.client.session.update, { sessionId, update: change });
  const say = (client: AgentContext, sessionId: string, text: string) =>
    update(client, sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text } });

  const sessionOf = (id: string): TestSession => {
    const session = sessions.get(id);
    if (!session) throw RequestError.resourceNotFound(id);
    return session;
  };

  async function permission(client: AgentContext, session: TestSession, kind: "edit" | "execute", signal: AbortSignal, partial = false) {
    const toolCallId = `call-${session.prompts.length}`;
    const file = path.join(session.cwd, "src", "app.ts");
    const toolCall =
      kind === "edit"
        ? {
            toolCallId,
            title: "Edit src/app.ts",
            kind: "edit" as const,
            locations: [{ path: file, line: 2 }],
            content: [{ type: "diff" as const, path: file, oldText: "const a = 1;\nconst b = 2;\n", newText: "const a = 1;\nconst b = 3;\n" }],
            rawInput: { file_path: file, old_string: "const b = 2;", new_string: "const b = 3;" },
          }
        : {
            toolCallId,
            title: "npm test",
            kind: "execute" as const,
            content: [{ type: "content" as const, content: { type: "text" as const, text: "npm test -- --run" } }],
            rawInput: { command: "npm test -- --run" },
          };
    await update(client, session.id, { sessionUpdate: "tool_call", status: "pending", ...toolCall });
    if (session.mode === "auto") {
      await update(client, session.id, { sessionUpdate: "tool_call_update", toolCallId, status: "completed" });
      await say(client, session.id, `auto: ${kind} done without asking`);
      return;
    }
    // Partial, the request names the call by its id and what changed, as Codex's edits do.
    const asking = partial ? { toolCallId, kind, status: "pending" as const } : toolCall;
    const request: RequestPermissionRequest = { sessionId: session.id, toolCall: asking, options: [...TEST_PERMISSION_OPTIONS] };
    const asked = client.request(methods.client.session.requestPermission, request);
    // A turn of the session lingering past its cancel (`/linger`) ends once this request is on its way.
    lingering.get(session.id)?.();
    lingering.delete(session.id);
    const response = await asked;
    const allowed = response.outcome.outcome === "selected" && response.outcome.optionId.startsWith("proceed");
    await update(client, session.id, { sessionUpdate: "tool_call_update", toolCallId, status: allowed ? "completed" : "failed" });
    await say(client, session.id, `permission: ${json(response)}`);
    if (signal.aborted) throw new TurnCancelled();
  }

  async function qwenQuestion(client: AgentContext, session: TestSession, signal: AbortSignal) {
    const toolCallId = `ask-${session.prompts.length}`;
    const request: RequestPermissionRequest = {
      sessionId: session.id,
      // Where Qwen Code 0.24 puts it: on the tool call, beside the tool's name.
      toolCall: {
        toolCallId,
        title: "Ask the user",
        kind: "think",
        status: "pending",
        rawInput: { questions: TEST_QWEN_QUESTIONS },
        _meta: { toolName: "ask_user_question", qwenInteractionKind: "user_question", qwenQuestions: TEST_QWEN_QUESTIONS },
      },
      options: [
        { optionId: "proceed_once", name: "Submit", kind: "allow_once" },
        { optionId: "cancel", name: "Cancel", kind: "reject_once" },
      ],
    };
    const response = client.request(methods.client.session.requestPermission, request);
    // Like Qwen Code, a cancelled turn ends at once and leaves the question's request open.
    const cancelled = new Promise<"cancelled">((resolve) => signal.addEventListener("abort", () => resolve("cancelled"), { once: true }));
    const first = await Promise.race([response, cancelled]);
    if (first === "cancelled") throw new TurnCancelled();
    await say(client, session.id, `answers: ${json(first)}`);
  }

  async function elicit(client: AgentContext, session: TestSession) {
    const response = await client.request(methods.client.elicitation.create, {
      mode: "form",
      sessionId: session.id,
      message: "Please answer the following questions.",
      requestedSchema: TEST_ELICITATION_SCHEMA,
    });
    await say(client, session.id, `elicitation: ${json(response)}`);
  }

  async function withdraw(client: AgentContext, session: TestSession) {
    const controller = new AbortController();
    const response = client.request(
      methods.client.session.requestPermission,
      {
        sessionId: session.id,
        toolCall: { toolCallId: "withdrawn", title: "Delete build/", kind: "delete" },
        options: [...TEST_PERMISSION_OPTIONS],
      },
      { cancellationSignal: controller.signal },
    );
    controller.abort();
    const outcome = await response.then(
      (value) => value as unknown,
      (error: unknown) => ({ error: error instanceof RequestError ? error.code : String(error) }),
    );
    await say(client, session.id, `withdrawn: ${json(outcome)}`);
  }

  async function stream(client: AgentContext, session: TestSession) {
    const id = session.id;
    await update(client, id, { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "Thinking about the tests…" } });
    await update(client, id, {
      sessionUpdate: "plan",
      entries: [
        { content: "Read the failing test", priority: "high", status: "completed" },
        { content: "Fix the bug", priority: "medium", status: "in_progress" },
      ],
    });
    await say(client, id, "Here is **the** plan.\n\n");
    const file = path.join(session.cwd, "src", "b.ts");
    await update(client, id, {
      sessionUpdate: "tool_call",
      toolCallId: "edit-1",
      title: "Edit src/b.ts",
      kind: "edit",
      status: "in_progress",
      locations: [{ path: file }],
      rawInput: { file_path: file },
    });
    await update(client, id, {
      sessionUpdate: "tool_call_update",
      toolCallId: "edit-1",
      status: "completed",
      content: [{ type: "diff", path: file, oldText: "export const b = 1;\n", newText: "export const b = 2;\n" }],
    });
    await update(client, id, { sessionUpdate: "tool_call", toolCallId: "run-1", title: "npm test", kind: "execute", status: "in_progress", rawInput: { command: "npm test" } });
    await update(client, id, {
      sessionUpdate: "tool_call_update",
      toolCallId: "run-1",
      status: "failed",
      content: [{ type: "content", content: { type: "text", text: ANSI_OUTPUT } }],
      rawOutput: { exitCode: 1 },
    });
    await update(client, id, {
      sessionUpdate: "available_commands_update",
      availableCommands: [
        { name: "init", description: "Write an AGENTS.md" },
        { name: "review", description: "Review the changes", input: { hint: "what to review" } },
        // A hostile agent's bidi controls and a name of nothing but a mark: kept as titles are, the nameless one dropped.
        { name: "ship\u202E", description: "Ship \u2066it\u2069\n  now", input: { hint: "\u202Ewhere" } },
        { name: "\u200F", description: "nothing but a mark" },
      ],
    });
    await update(client, id, { sessionUpdate: "current_mode_update", currentModeId: session.mode });
    await update(client, id, { sessionUpdate: "session_info_update", title: "Fix the failing test" });
    await update(client, id, { sessionUpdate: "usage_update", used: 1200, size: 128000, cost: { amount: 0.01, currency: "USD" } });
    await say(client, id, "done");
  }

  async function flood(client: AgentContext, session: TestSession, count: number) {
    const calls: Promise<unknown>[] = [];
    for (let index = 0; index < count; index++) {
      calls.push(client.request("_test/flood", { index }));
      calls.push(client.notify("_test/flood_note", { index }));
    }
    const results = await Promise.allSettled(calls);
    const errors = results.filter((result) => result.status === "rejected").length;
    await say(client, session.id, `flood: ${errors} errors`);
  }

  async function runTurn(client: AgentContext, session: TestSession, text: string, signal: AbortSignal) {
    const [command, argument] = text.split(/\s+/, 2);
    switch (command) {
      case "/permission":
        return permission(client, session, argument === "execute" ? "execute" : "edit", signal, argument === "partial");
      case "/qwen-question":
        return qwenQuestion(client, session, signal);
      case "/elicit":
        return elicit(client, session);
      case "/withdraw":
        return withdraw(client, session);
      case "/stream":
        return stream(client, session);
      case "/unknown-update":
        await client.notify(methods.client.session.update, { sessionId: session.id, update: { sessionUpdate: "_test_sparkles", sparkles: 3 } } as never);
        return say(client, session.id, "after unknown");
      case "/crash":
        await say(client, session.id, "about to crash");
        writeError("panic: the test agent crashed\nat step 2\nexit now\n");
        return exit(3);
      case "/garbage":
        writeRaw("this is not JSON\n{\"half\": \n\u0000\u0001 binary\n");
        return say(client, session.id, "still here");
      case "/long-request":
        writeRaw(`{"jsonrpc":"2.0","id":"\\x","method":"_test/long","params":"${"x".repeat(Number(argument ?? 1024))}"}\n`);
        return say(client, session.id, "still here");
      case "/flood":
        return flood(client, session, Number(argument ?? 100));
      case "/big": {
        const size = Number(argument ?? 1024);
        const file = path.join(session.cwd, "big.txt");
        await update(client, session.id, {
          sessionUpdate: "tool_call",
          toolCallId: "big-1",
          title: "Write big.txt",
          kind: "edit",
          status: "completed",
          content: [{ type: "diff", path: file, newText: "x".repeat(size) }],
        });
        return say(client, session.id, `big: ${size}`);
      }
      case "/permission-none": {
        const toolCall = { toolCallId: "none-1", title: "Do something", kind: "other" as const };
        const response = await client.request(methods.client.session.requestPermission, { sessionId: session.id, toolCall, options: [] });
        return say(client, session.id, `permission: ${json(response)}`);
      }
      case "/permission-for": {
        const other = argument ?? "";
        const toolCall = { toolCallId: "background-1", title: "npm run build", kind: "execute" as const };
        const response = await client.request(methods.client.session.requestPermission, { sessionId: other, toolCall, options: [...TEST_PERMISSION_OPTIONS] });
        return say(client, session.id, `permission for ${other}: ${json(response)}`);
      }
      case "/unfinished":
        await update(client, session.id, { sessionUpdate: "tool_call", toolCallId: "left-1", title: "Watch the files", kind: "execute", status: "in_progress" });
        return say(client, session.id, "left it running");
      case "/ignore-cancel":
        await say(client, session.id, "working");
        return new Promise<void>(() => undefined);
      case "/linger":
        await say(client, session.id, "working");
        return new Promise<void>((resolve) => lingering.set(session.id, resolve));
      case "/hang":
        return new Promise<void>((_, reject) => signal.addEventListener("abort", () => reject(new TurnCancelled()), { once: true }));
      case "/title":
        await update(client, session.id, { sessionUpdate: "session_info_update", title: text.slice("/title".length).trim() });
        return say(client, session.id, "titled");
      case "/env":
        return say(client, session.id, `env: ${json(Object.keys(options.env ?? process.env).sort())}`);
      case "/memory":
        return say(client, session.id, `memory: ${json(session.prompts.slice(0, -1))}`);
      default:
        return say(client, session.id, `echo: ${text}`);
    }
  }

  const app = agent({ name: "parley-test-agent" });
  if (options.startGarbage) writeRaw("garbage before initialize\n");
  app.onRequest(methods.agent.initialize, () => {
    if (options.noInitialize) return new Promise<never>(() => undefined);
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: { loadSession, promptCapabilities: { image: false, audio: false, embeddedContext: false } },
      agentInfo: { name: "parley-test-agent", version: "1.0.0" },
      authMethods: [],
    };
  });
  app.onRequest(methods.agent.session.new, async ({ params }) => {
    if (options.noSession) return new Promise<never>(() => undefined);
    // Numbered as asked, so sessions opened behind the gate keep their order.
    const id = `test-session-${nextSession++}`;
    if (options.sessionGate) await untilExists(options.sessionGate);
    const session: TestSession = { id, cwd: params.cwd, mode: offered.currentModeId, prompts: [], turn: null };
    sessions.set(id, session);
    save(session);
    return { sessionId: id, modes: { ...offered, currentModeId: session.mode } };
  });
  app.onRequest(methods.agent.session.load, async ({ params, client }) => {
    if (!loadSession) throw RequestError.methodNotFound(methods.agent.session.load);
    // What is kept on disk wins over this process's copy, as with an agent whose sessions other processes also load.
    const session = restore(params.sessionId) ?? sessions.get(params.sessionId);
    if (!session) throw RequestError.resourceNotFound(params.sessionId);
    session.cwd = params.cwd;
    sessions.set(session.id, session);
    for (const prompt of session.prompts) {
      await update(client, session.id, { sessionUpdate: "user_message_chunk", content: { type: "text", text: prompt } });
    }
    // Its commands, sent again as the history is, before the load is answered.
    await update(client, session.id, { sessionUpdate: "available_commands_update", availableCommands: [{ name: "init", description: "Write an AGENTS.md" }] });
    return { modes: { ...offered, currentModeId: session.mode } };
  });
  app.onRequest(methods.agent.session.setMode, async ({ params, client }) => {
    const session = sessionOf(params.sessionId);
    if (options.refuseMode === "error" && session.prompts.length > 0) throw RequestError.invalidRequest(undefined, "modes are locked in this workspace");
    if (options.refuseMode === "ignore-once" && session.prompts.length > 0 && !ignoredSetMode) {
      ignoredSetMode = true;
      return new Promise<never>(() => undefined);
    }
    if (!offered.availableModes.some((mode) => mode.id === params.modeId)) throw RequestError.invalidParams({ modeId: params.modeId });
    session.mode = params.modeId;
    save(session);
    await update(client, session.id, { sessionUpdate: "current_mode_update", currentModeId: session.mode });
    return {};
  });
  app.onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    const session = sessionOf(params.sessionId);
    if (session.turn) throw RequestError.invalidRequest(undefined, "a turn is already running");
    const text = promptText(params.prompt);
    session.prompts.push(text);
    save(session);
    const turn = new AbortController();
    session.turn = turn;
    try {
      await runTurn(client, session, text, turn.signal);
      return { stopReason: turn.signal.aborted ? "cancelled" : "end_turn" };
    } catch (error) {
      if (error instanceof TurnCancelled || turn.signal.aborted) return { stopReason: "cancelled" };
      throw error;
    } finally {
      session.turn = null;
    }
  });
  app.onNotification(methods.agent.session.cancel, ({ params }) => {
    sessions.get(params.sessionId)?.turn?.abort();
  });
  return app;
}

class TurnCancelled extends Error {}

/** Resolves once `file` exists, looking every 20 ms. */
async function untilExists(file: string): Promise<void> {
  while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Reads TestAgentOptions from the environment the stdio entry runs in. */
export function testAgentOptionsFromEnv(env: NodeJS.ProcessEnv): TestAgentOptions {
  return {
    noInitialize: env.TEST_AGENT_NO_INIT === "1",
    noSession: env.TEST_AGENT_NO_SESSION === "1",
    ...(env.TEST_AGENT_SESSION_GATE ? { sessionGate: env.TEST_AGENT_SESSION_GATE } : {}),
    ...(env.TEST_AGENT_REFUSE_MODE === "1" ? { refuseMode: "error" as const } : env.TEST_AGENT_REFUSE_MODE === "ignore-once" ? { refuseMode: "ignore-once" as const } : {}),
    ...(env.TEST_AGENT_MODE_IDS ? { modeIds: env.TEST_AGENT_MODE_IDS.split(",") } : {}),
    loadSession: env.TEST_AGENT_LOAD_SESSION !== "0",
    ...(env.TEST_AGENT_STATE_DIR ? { stateDir: env.TEST_AGENT_STATE_DIR } : {}),
    startGarbage: env.TEST_AGENT_START_GARBAGE === "1",
    env,
  };
}

/** The stdio entry point. */
export const TEST_AGENT_STDIO_ENTRY = path.resolve(import.meta.dirname, "test-agent-stdio.ts");
/** Arguments that start the test agent with `process.execPath`, from any working directory. */
export const TEST_AGENT_ARGS = ["--import", import.meta.resolve("tsx"), TEST_AGENT_STDIO_ENTRY];
