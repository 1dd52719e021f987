import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentsConfigError, loadAgentsConfig, parseAgentsConfig, resolveWorkspace } from "./config";
import { createTempDirs } from "../../testing/host/temp-dirs";

const { make: tempDir, removeAll: removeTempDirs } = createTempDirs("parley-acp-config-");
afterEach(() => {
  removeTempDirs();
});

function problem(value: unknown, dir = tempDir()): string {
  try {
    parseAgentsConfig(value, path.join(dir, "parley.agents.json"), dir);
  } catch (error) {
    expect(error).toBeInstanceOf(AgentsConfigError);
    return (error as Error).message.replace(`${path.join(dir, "parley.agents.json")}`, "<file>");
  }
  throw new Error("the config was accepted");
}

describe("agents config", () => {
  it("reads agents in file order with their defaults, and workspaces from the file's folder", () => {
    const dir = realpathSync(tempDir());
    mkdirSync(path.join(dir, "code"));
    const config = parseAgentsConfig(
      {
        agents: {
          qwen: { title: "Qwen Code", command: "qwen", args: ["--acp"], env: { OPENAI_API_KEY: "k" } },
          claude: { title: "Claude Code", command: "claude-agent-acp", disabled: true },
        },
        workspaces: ["code", dir],
      },
      path.join(dir, "parley.agents.json"),
      "/",
    );
    expect(config).toEqual({
      file: path.join(dir, "parley.agents.json"),
      agents: [
        { name: "qwen", title: "Qwen Code", command: "qwen", args: ["--acp"], env: { OPENAI_API_KEY: "k" }, disabled: false },
        { name: "claude", title: "Claude Code", command: "claude-agent-acp", args: [], env: {}, disabled: true },
      ],
      workspaces: [path.join(dir, "code"), dir],
    });
  });

  it("takes the start directory as the one workspace when the file names none", () => {
    const dir = tempDir();
    const start = tempDir();
    expect(parseAgentsConfig({ agents: {} }, path.join(dir, "parley.agents.json"), start).workspaces).toEqual([realpathSync(start)]);
  });

  it("names the file and the wrong field", () => {
    expect(problem({})).toBe("Agents config <file>: agents: expected record");
    expect(problem({ agents: {}, extra: 1 })).toBe('Agents config <file>: unknown field "extra"');
    expect(problem({ agents: { qwen: { command: "qwen" } } })).toBe("Agents config <file>: agents.qwen.title: expected string");
    expect(problem({ agents: { qwen: { title: "Q", command: "" } } })).toBe("Agents config <file>: agents.qwen.command: must not be empty");
    expect(problem({ agents: { qwen: { title: "Q", command: "q", args: "--acp" } } })).toBe("Agents config <file>: agents.qwen.args: expected array");
    expect(problem({ agents: { qwen: { title: "Q", command: "q", env: { A: 1 } } } })).toBe("Agents config <file>: agents.qwen.env.A: expected string");
    expect(problem({ agents: { qwen: { title: "Q", command: "q", cwd: "/" } } })).toBe('Agents config <file>: agents.qwen: unknown field "cwd"');
    expect(problem({ agents: { "bad name": { title: "Q", command: "q" } } })).toBe(
      'Agents config <file>: agents.bad name: an agent name is 1 to 32 letters, digits, "-" or "_", starting with a letter or digit',
    );
    expect(problem({ agents: {}, workspaces: [] })).toBe("Agents config <file>: workspaces: must not be empty (leave it out to allow the start directory)");
    const dir = tempDir();
    expect(problem({ agents: {}, workspaces: ["missing"] }, dir)).toBe(`Agents config <file>: workspaces.0: ${path.join(dir, "missing")} cannot be used (ENOENT)`);
    writeFileSync(path.join(dir, "file.txt"), "x");
    expect(problem({ agents: {}, workspaces: ["file.txt"] }, dir)).toBe(`Agents config <file>: workspaces.0: ${path.join(dir, "file.txt")} is not a folder`);
  });

  it("reads PARLEY_AGENTS_CONFIG, else ./parley.agents.json when it exists, else no agents in the start directory", () => {
    const dir = tempDir();
    expect(loadAgentsConfig({}, dir)).toEqual({ file: null, agents: [], workspaces: [realpathSync(dir)] });
    writeFileSync(path.join(dir, "parley.agents.json"), JSON.stringify({ agents: { a: { title: "A", command: "a" } } }));
    expect(loadAgentsConfig({}, dir).agents.map((agent) => agent.name)).toEqual(["a"]);
    writeFileSync(path.join(dir, "other.json"), "{not json");
    expect(() => loadAgentsConfig({ PARLEY_AGENTS_CONFIG: "other.json" }, dir)).toThrow(`Agents config ${path.join(dir, "other.json")}: is not JSON`);
    expect(() => loadAgentsConfig({ PARLEY_AGENTS_CONFIG: "gone.json" }, dir)).toThrow(`Agents config ${path.join(dir, "gone.json")}: cannot be read (ENOENT)`);
  });
});

describe("resolveWorkspace", () => {
  function setup() {
    const root = realpathSync(tempDir());
    const outside = realpathSync(tempDir());
    mkdirSync(path.join(root, "app", "src"), { recursive: true });
    symlinkSync(outside, path.join(root, "escape"));
    symlinkSync(path.join(root, "app"), path.join(outside, "into-app"));
    writeFileSync(path.join(root, "notes.txt"), "x");
    return { root, outside, config: { workspaces: [root] } };
  }

  it("takes a folder inside a workspace, and the first workspace when none is asked for", () => {
    const { root, outside, config } = setup();
    expect(resolveWorkspace(config)).toEqual({ ok: true, cwd: root });
    expect(resolveWorkspace(config, root)).toEqual({ ok: true, cwd: root });
    expect(resolveWorkspace(config, path.join(root, "app", "src"))).toEqual({ ok: true, cwd: path.join(root, "app", "src") });
    expect(resolveWorkspace(config, `${path.join(root, "app")}/`)).toEqual({ ok: true, cwd: path.join(root, "app") });
    expect(resolveWorkspace(config, path.join(outside, "into-app"))).toEqual({ ok: true, cwd: path.join(root, "app") });
  });

  it("refuses a folder outside the workspaces, through .. or a symlink, naming the rule", () => {
    const { root, outside, config } = setup();
    for (const requested of [outside, path.join(root, "escape"), `${root}/app/../..`, "/"]) {
      const result = resolveWorkspace(config, requested);
      expect(result).toEqual({ ok: false, reason: `the folder ${requested} is outside the workspaces a chat may run in (${root})` });
    }
    expect(resolveWorkspace(config, `${root}-sibling`)).toEqual({ ok: false, reason: `the folder ${root}-sibling does not exist` });
  });

  it("refuses a missing folder, a file, a relative path and a NUL", () => {
    const { root, config } = setup();
    expect(resolveWorkspace(config, path.join(root, "nope"))).toEqual({ ok: false, reason: `the folder ${path.join(root, "nope")} does not exist` });
    expect(resolveWorkspace(config, path.join(root, "notes.txt"))).toEqual({ ok: false, reason: `${path.join(root, "notes.txt")} is not a folder` });
    expect(resolveWorkspace(config, "app")).toEqual({ ok: false, reason: 'the folder must be an absolute path, not "app"' });
    expect(resolveWorkspace(config, `${root}\0`)).toEqual({ ok: false, reason: "a workspace folder cannot contain a NUL character" });
  });
});
