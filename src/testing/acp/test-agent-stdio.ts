import { Readable, Writable } from "node:stream";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { createTestAgent, testAgentOptionsFromEnv } from "./test-agent";

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
process.exit(0);
