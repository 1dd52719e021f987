import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createTestMcpServer } from "./test-mcp-server";

/** Exit code of the `crash` tool, so a test can tell a crash from a clean exit. */
const CRASH_EXIT_CODE = 3;

// `TEST_MCP_FAIL_START=1` makes the server die before it speaks, as a server with a broken install does;
// `TEST_MCP_FAIL_TEXT` is then the line it leaves on stderr.
if (process.env.TEST_MCP_FAIL_START === "1") {
  process.stderr.write(`${process.env.TEST_MCP_FAIL_TEXT ?? "test server: refusing to start"}\n`);
  process.exit(2);
}

const events: string[] = [];
await createTestMcpServer({ events, crash: () => process.exit(CRASH_EXIT_CODE) }).connect(new StdioServerTransport());
