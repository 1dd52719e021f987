import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { z } from "zod/mini";
import { describeConfigIssue } from "../config-issues";

/** The file read when PARLEY_AGENTS_CONFIG is unset, if it exists in the start directory. */
export const DEFAULT_AGENTS_CONFIG_FILE = "parley.agents.json";

/** An agent's name: 1 to 32 letters, digits, `-` or `_`, starting with a letter or digit. It names the agent in URLs and logs. */
export const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

const AgentEntry = z.strictObject({
  title: z.string().check(z.minLength(1), z.maxLength(100)),
  command: z.string().check(z.minLength(1)),
  args: z.optional(z.array(z.string())),
  env: z.optional(z.record(z.string(), z.string())),
  disabled: z.optional(z.boolean()),
});

const ConfigFile = z.strictObject({
  agents: z.record(z.string(), z.unknown()),
  workspaces: z.optional(z.array(z.string().check(z.minLength(1)))),
});

/** One ACP agent the host may start: `command args…` over stdio, with a minimal environment plus `env`. */
export interface AcpAgentConfig {
  name: string;
  title: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  disabled: boolean;
}

/**
 * The agents of `parley.agents.json`, in file order, and the folders a chat may run in (absolute, symlinks
 * resolved; the start directory when the file names none). `file` is null when there is no file.
 */
export interface AgentsConfig {
  file: string | null;
  agents: AcpAgentConfig[];
  workspaces: string[];
}

/** A config file that cannot be used; the message names the file and the field that is wrong. */
export class AgentsConfigError extends Error {
  override readonly name = "AgentsConfigError";
}

function errnoCode(error: unknown): string {
  return (error as { code?: string }).code ?? String(error);
}

/**
 * Checks the file's JSON value; relative workspaces are read from the file's folder. Throws
 * AgentsConfigError naming the first wrong field, and a workspace that is not an existing folder.
 */
export function parseAgentsConfig(value: unknown, file: string, startDir: string): AgentsConfig {
  const fail = (problem: string): never => {
    throw new AgentsConfigError(`Agents config ${file}: ${problem}`);
  };
  const top = ConfigFile.safeParse(value);
  if (!top.success) fail(describeConfigIssue([], top.error.issues[0]!));
  const agents: AcpAgentConfig[] = [];
  for (const [name, raw] of Object.entries(top.data!.agents)) {
    if (!AGENT_NAME.test(name)) fail(`agents.${name}: an agent name is 1 to 32 letters, digits, "-" or "_", starting with a letter or digit`);
    const parsed = AgentEntry.safeParse(raw);
    if (!parsed.success) fail(describeConfigIssue(["agents", name], parsed.error.issues[0]!));
    const agent = parsed.data!;
    agents.push({ name, title: agent.title, command: agent.command, args: agent.args ?? [], env: agent.env ?? {}, disabled: agent.disabled ?? false });
  }
  const listed = top.data!.workspaces;
  const base = path.dirname(file);
  const workspaces = (listed ?? [startDir]).map((entry, index) => {
    const absolute = path.resolve(listed ? base : startDir, entry);
    let real: string;
    try {
      real = realpathSync(absolute);
    } catch (error) {
      return fail(`workspaces.${index}: ${absolute} cannot be used (${errnoCode(error)})`);
    }
    if (!statSync(real).isDirectory()) fail(`workspaces.${index}: ${absolute} is not a folder`);
    return real;
  });
  if (workspaces.length === 0) fail("workspaces: must not be empty (leave it out to allow the start directory)");
  return { file, agents, workspaces: [...new Set(workspaces)] };
}

/**
 * Reads the config named by PARLEY_AGENTS_CONFIG, else `./parley.agents.json` when it exists, else none
 * (no agents; the start directory is the one workspace). A named file that is missing, not JSON, or
 * wrong throws AgentsConfigError.
 */
export function loadAgentsConfig(env: NodeJS.ProcessEnv, cwd: string): AgentsConfig {
  const named = env.PARLEY_AGENTS_CONFIG;
  const file = named ? path.resolve(cwd, named) : path.resolve(cwd, DEFAULT_AGENTS_CONFIG_FILE);
  if (!named && !existsSync(file)) {
    return { file: null, agents: [], workspaces: [realpathSync(cwd)] };
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new AgentsConfigError(`Agents config ${file}: cannot be read (${errnoCode(error)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AgentsConfigError(`Agents config ${file}: is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  return parseAgentsConfig(value, file, cwd);
}

export type WorkspaceCheck = { ok: true; cwd: string } | { ok: false; reason: string };

function inside(folder: string, root: string): boolean {
  const relative = path.relative(root, folder);
  return relative === "" || (!path.isAbsolute(relative) && relative !== ".." && !relative.startsWith(`..${path.sep}`));
}

/**
 * The folder a chat runs in: `requested` (absolute) with symlinks resolved, when it is an existing
 * folder inside one of the workspaces; the first workspace when nothing is requested. Otherwise a
 * sentence naming the rule it breaks, for a 400.
 */
export function resolveWorkspace(config: Pick<AgentsConfig, "workspaces">, requested?: string): WorkspaceCheck {
  if (requested === undefined) {
    const first = config.workspaces[0];
    return first === undefined ? { ok: false, reason: "no workspace is configured" } : { ok: true, cwd: first };
  }
  if (requested.includes("\0")) return { ok: false, reason: "a workspace folder cannot contain a NUL character" };
  if (!path.isAbsolute(requested)) return { ok: false, reason: `the folder must be an absolute path, not ${JSON.stringify(requested)}` };
  let real: string;
  try {
    real = realpathSync(requested);
  } catch {
    return { ok: false, reason: `the folder ${requested} does not exist` };
  }
  let isFolder = false;
  try {
    isFolder = statSync(real).isDirectory();
  } catch {
    isFolder = false;
  }
  if (!isFolder) return { ok: false, reason: `${requested} is not a folder` };
  const roots = config.workspaces.map((root) => {
    try {
      return realpathSync(root);
    } catch {
      return null;
    }
  });
  if (roots.some((root) => root !== null && inside(real, root))) return { ok: true, cwd: real };
  return { ok: false, reason: `the folder ${requested} is outside the workspaces a chat may run in (${config.workspaces.join(", ")})` };
}
