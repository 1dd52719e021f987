#!/usr/bin/env node
// `parley mcp`: speaks MCP on stdin/stdout and forwards to the running Parley host (PARLEY_URL, PARLEY_TOKEN).
// stdout carries protocol messages only; everything else goes to stderr.
import { pathToFileURL } from "node:url";

const USAGE = "usage: parley mcp    (an MCP server on stdin/stdout for the Parley host at PARLEY_URL, default http://127.0.0.1:8787)\n";

const [command, ...rest] = process.argv.slice(2);
if (command !== "mcp" || rest.length > 0) {
  process.stderr.write(USAGE);
  process.exit(command === undefined || command === "--help" || command === "-h" ? 0 : 2);
}

// Compiled JavaScript, built on first use and again when its sources change (scripts/build.mjs).
const { buildBridge, BRIDGE_ENTRY } = await import("../scripts/build.mjs");
buildBridge();
const { DEFAULT_PARLEY_URL, startStdioBridge } = await import(pathToFileURL(BRIDGE_ENTRY).href);
const url = process.env.PARLEY_URL || DEFAULT_PARLEY_URL;
try {
  new URL(url);
} catch {
  process.stderr.write(`parley mcp: PARLEY_URL=${url} is not a URL\n`);
  process.exit(2);
}
const bridge = await startStdioBridge({ url, token: process.env.PARLEY_TOKEN || undefined });
const stop = () => {
  bridge.close().then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`parley mcp: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
process.stdin.once("end", stop);
