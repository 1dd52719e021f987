import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadMcpConfig, McpConfigError, parseMcpConfig, SERVER_NAME } from "./config";
import { createTempDirs } from "../../testing/host/temp-dirs";

const { make: tempDir, removeAll: removeTempDirs } = createTempDirs("parley-mcp-config-");
afterEach(() => {
  removeTempDirs();
});

function problem(value: unknown): string {
  try {
    parseMcpConfig(value, "/etc/parley.mcp.json");
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigError);
    return (error as Error).message;
  }
  throw new Error("the config was accepted");
}

describe("MCP config", () => {
  it("reads stdio and http servers in file order with their defaults filled in", () => {
    const config = parseMcpConfig(
      {
        mcpServers: {
          notes: { command: "node", args: ["server.js"], env: { NOTES_DIR: "/tmp" }, cwd: "/srv", autoApprove: ["read_note"] },
          web: { type: "http", url: "https://mcp.example/mcp", headers: { Authorization: "Bearer x" }, disabled: true },
          bare: { type: "stdio", command: "bare-server" },
        },
      },
      "/etc/parley.mcp.json",
    );
    expect(config).toEqual({
      file: "/etc/parley.mcp.json",
      servers: [
        { name: "notes", transport: "stdio", command: "node", args: ["server.js"], env: { NOTES_DIR: "/tmp" }, cwd: "/srv", autoApprove: ["read_note"], disabled: false },
        { name: "web", transport: "http", url: "https://mcp.example/mcp", headers: { Authorization: "Bearer x" }, autoApprove: [], disabled: true },
        { name: "bare", transport: "stdio", command: "bare-server", args: [], env: {}, autoApprove: [], disabled: false },
      ],
    });
  });

  it("names the file and the wrong field", () => {
    expect(problem({ mcpServers: { notes: { args: [] } } })).toBe("MCP config /etc/parley.mcp.json: mcpServers.notes.command: expected string");
    expect(problem({ mcpServers: { notes: { command: "x", args: "a b" } } })).toBe("MCP config /etc/parley.mcp.json: mcpServers.notes.args: expected array");
    expect(problem({ mcpServers: { web: { type: "http", url: "ftp://x" } } })).toBe("MCP config /etc/parley.mcp.json: mcpServers.web.url: expected an http or https URL");
    expect(problem({ mcpServers: { web: { type: "http", url: "https://x", command: "y" } } })).toBe('MCP config /etc/parley.mcp.json: mcpServers.web: unknown field "command"');
    expect(problem({ mcpServers: { notes: { command: "x", autoApprove: [1] } } })).toBe("MCP config /etc/parley.mcp.json: mcpServers.notes.autoApprove.0: expected string");
    expect(problem({ mcpServers: { notes: { command: "" } } })).toBe("MCP config /etc/parley.mcp.json: mcpServers.notes.command: must not be empty");
    expect(problem({ mcpServers: { notes: { type: "sse", command: "x" } } })).toBe('MCP config /etc/parley.mcp.json: mcpServers.notes.type: expected "stdio" or "http"');
    expect(problem({ servers: {} })).toBe("MCP config /etc/parley.mcp.json: mcpServers: expected record");
  });

  it("refuses a server name that cannot sit in mcp__<server>__<tool>", () => {
    const rule = 'a server name is 1 to 32 letters, digits, "-" or single "_" (not at either end)';
    expect(problem({ mcpServers: { "my notes": { command: "x" } } })).toBe(`MCP config /etc/parley.mcp.json: mcpServers.my notes: ${rule}`);
    expect(problem({ mcpServers: { a__b: { command: "x" } } })).toBe(`MCP config /etc/parley.mcp.json: mcpServers.a__b: ${rule}`);
    expect(["notes", "brave_search", "git-hub", "A1"].filter((name) => SERVER_NAME.test(name))).toEqual(["notes", "brave_search", "git-hub", "A1"]);
    expect(["", "_x", "x_", "a__b", "é", "x".repeat(33), "a.b"].filter((name) => SERVER_NAME.test(name))).toEqual([]);
  });

  it("reads ./parley.mcp.json when PARLEY_MCP_CONFIG is unset, and nothing when neither exists", () => {
    const dir = tempDir();
    expect(loadMcpConfig({}, dir)).toEqual({ file: null, servers: [] });
    writeFileSync(path.join(dir, "parley.mcp.json"), JSON.stringify({ mcpServers: { notes: { command: "notes" } } }));
    expect(loadMcpConfig({}, dir)).toEqual({
      file: path.join(dir, "parley.mcp.json"),
      servers: [{ name: "notes", transport: "stdio", command: "notes", args: [], env: {}, autoApprove: [], disabled: false }],
    });
  });

  it("reads PARLEY_MCP_CONFIG relative to the working directory and refuses one that is missing or not JSON", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "other.json"), JSON.stringify({ mcpServers: {} }));
    expect(loadMcpConfig({ PARLEY_MCP_CONFIG: "other.json" }, dir)).toEqual({ file: path.join(dir, "other.json"), servers: [] });
    expect(() => loadMcpConfig({ PARLEY_MCP_CONFIG: "missing.json" }, dir)).toThrow(`MCP config ${path.join(dir, "missing.json")}: cannot be read (ENOENT)`);
    writeFileSync(path.join(dir, "broken.json"), "{ mcpServers: ");
    expect(() => loadMcpConfig({ PARLEY_MCP_CONFIG: "broken.json" }, dir)).toThrow(`MCP config ${path.join(dir, "broken.json")}: is not JSON (`);
  });
});
