import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod/mini";
import { describeConfigIssue } from "../config-issues";

/** The file read when PARLEY_MCP_CONFIG is unset, if it exists in the working directory. */
export const DEFAULT_MCP_CONFIG_FILE = "parley.mcp.json";

/**
 * A server name: letters, digits, `-` and single `_` (no `__`, none at either end), at most 32
 * characters, so `mcp__<server>__<tool>` splits back unambiguously and fits the 64-character
 * tool-name rule `^[a-zA-Z0-9_-]{1,64}$` with room for the tool.
 */
export const SERVER_NAME = /^(?!_)(?!.*__)(?!.*_$)[A-Za-z0-9_-]{1,32}$/;

const common = {
  /** Tools of this server that run without asking the human. */
  autoApprove: z.optional(z.array(z.string())),
  disabled: z.optional(z.boolean()),
};
const stringMap = z.record(z.string(), z.string());

const StdioServer = z.strictObject({
  type: z.optional(z.literal("stdio")),
  command: z.string().check(z.minLength(1)),
  args: z.optional(z.array(z.string())),
  env: z.optional(stringMap),
  cwd: z.optional(z.string()),
  ...common,
});

const HttpServer = z.strictObject({
  type: z.literal("http"),
  url: z.url({ protocol: /^https?$/ }),
  headers: z.optional(stringMap),
  ...common,
});

const ConfigFile = z.strictObject({ mcpServers: z.record(z.string(), z.unknown()) });

interface ServerCommon {
  name: string;
  autoApprove: string[];
  disabled: boolean;
}
/** A server Parley launches and talks to over stdin/stdout. */
export interface StdioServerConfig extends ServerCommon {
  transport: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}
/** A server Parley reaches over Streamable HTTP. */
export interface HttpServerConfig extends ServerCommon {
  transport: "http";
  url: string;
  headers: Record<string, string>;
}
export type McpServerConfig = StdioServerConfig | HttpServerConfig;

/** The MCP servers the host uses, in file order; `file` is the path they came from, null when there is none. */
export interface McpConfig {
  file: string | null;
  servers: McpServerConfig[];
}

/** A config file that cannot be used; the message names the file and the field that is wrong. */
export class McpConfigError extends Error {
  override readonly name = "McpConfigError";
}

/** Checks the file's JSON value and returns its servers; throws McpConfigError naming the first wrong field. */
export function parseMcpConfig(value: unknown, file: string): McpConfig {
  const fail = (problem: string): never => {
    throw new McpConfigError(`MCP config ${file}: ${problem}`);
  };
  const top = ConfigFile.safeParse(value);
  if (!top.success) fail(describeConfigIssue([], top.error.issues[0]!));
  const servers: McpServerConfig[] = [];
  for (const [name, raw] of Object.entries(top.data!.mcpServers)) {
    const at = ["mcpServers", name];
    if (!SERVER_NAME.test(name)) {
      fail(`mcpServers.${name}: a server name is 1 to 32 letters, digits, "-" or single "_" (not at either end)`);
    }
    const type = typeof raw === "object" && raw !== null && Object.hasOwn(raw, "type") ? (raw as { type: unknown }).type : undefined;
    if (type !== undefined && type !== "http" && type !== "stdio") fail(`mcpServers.${name}.type: expected "stdio" or "http"`);
    if (type === "http") {
      const parsed = HttpServer.safeParse(raw);
      if (!parsed.success) fail(describeConfigIssue(at, parsed.error.issues[0]!));
      const server = parsed.data!;
      servers.push({ name, transport: "http", url: server.url, headers: server.headers ?? {}, autoApprove: server.autoApprove ?? [], disabled: server.disabled ?? false });
      continue;
    }
    const parsed = StdioServer.safeParse(raw);
    if (!parsed.success) fail(describeConfigIssue(at, parsed.error.issues[0]!));
    const server = parsed.data!;
    servers.push({
      name,
      transport: "stdio",
      command: server.command,
      args: server.args ?? [],
      env: server.env ?? {},
      ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
      autoApprove: server.autoApprove ?? [],
      disabled: server.disabled ?? false,
    });
  }
  return { file, servers };
}

/**
 * Reads the config named by PARLEY_MCP_CONFIG, else `./parley.mcp.json` when it exists, else none.
 * A named file that is missing, not JSON, or wrong throws McpConfigError.
 */
export function loadMcpConfig(env: NodeJS.ProcessEnv, cwd: string): McpConfig {
  const named = env.PARLEY_MCP_CONFIG;
  const file = named ? path.resolve(cwd, named) : path.resolve(cwd, DEFAULT_MCP_CONFIG_FILE);
  if (!named && !existsSync(file)) return { file: null, servers: [] };
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new McpConfigError(`MCP config ${file}: cannot be read (${(error as { code?: string }).code ?? String(error)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new McpConfigError(`MCP config ${file}: is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  return parseMcpConfig(value, file);
}
