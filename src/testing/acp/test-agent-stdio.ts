import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { createTestAgent, testAgentOptionsFromEnv } from "./test-agent";

// TEST_AGENT_RELAUNCH=1 starts the agent the way Qwen Code and Gemini CLI do: this process relaunches itself as a child
// sharing its stdio and only waits for it. The child writes its pid to TEST_AGENT_PID_FILE and, once its stdin ends,
// lingers TEST_AGENT_LINGER_MS before it exits (as one flushing its files would).
if (process.env.TEST_AGENT_RELAUNCH === "1") {
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, TEST_AGENT_RELAUNCH: "child" },
  });
  child.once("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  if (process.env.TEST_AGENT_PID_FILE) writeFileSync(process.env.TEST_AGENT_PID_FILE, String(process.pid));
  // TEST_AGENT_TERM_MS: asked to stop (its stdin closed, SIGTERM), it takes that long to exit, as one saving its state would.
  const termMs = Number(process.env.TEST_AGENT_TERM_MS ?? 0);
  if (termMs > 0) process.on("SIGTERM", () => setTimeout(() => process.exit(0), termMs));
  const options = testAgentOptionsFromEnv(process.env);
  const app = createTestAgent({
    ...options,
    writeRaw: (text) => process.stdout.write(text),
    writeError: (text) => process.stderr.write(text),
    exit: (code) => process.exit(code),
  });
  const stream = ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  const connection = app.connect(stream);
  await connection.closed;
  const linger = Math.max(Number(process.env.TEST_AGENT_LINGER_MS ?? 0), termMs);
  if (linger > 0) await new Promise((resolve) => setTimeout(resolve, linger));
  process.exit(0);
}
