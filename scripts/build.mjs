// Builds what `npm start` and `parley mcp` run, each only when it is missing or older than its sources: the browser app
// (Vite, into dist/) and the host and the stdio bridge (esbuild, one ES module each, into build/; packages stay in node_modules).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, renameSync, statSync } from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);

function newestMtime(target) {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function stale(output, sources) {
  if (!existsSync(output)) return true;
  const present = sources.map((source) => path.join(root, source)).filter(existsSync);
  return Math.max(...present.map(newestMtime)) > statSync(output).mtimeMs;
}

function run(what, command, args) {
  console.error(`Building ${what}…`);
  // Its output goes to stderr: the bridge's stdout carries protocol messages only.
  const result = spawnSync(command, args, { cwd: root, stdio: ["ignore", 2, 2] });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`building ${what} failed (exit ${result.status})`);
}

const HOST_SOURCES = ["src/host", "src/protocol", "src/bridge", "package.json"];
/** Where the compiled host lives; `../../dist` from it is the browser app, as it is from `src/host/main.ts`. */
export const HOST_ENTRY = path.join(root, "build", "host", "main.mjs");
export const BRIDGE_ENTRY = path.join(root, "build", "bridge", "stdio-bridge.mjs");

/** Written beside its place and renamed into it, so a process starting meanwhile reads the old file or the new, never half. */
function esbuild(what, entry, outfile) {
  const partial = `${outfile}.${process.pid}.partial`;
  run(what, bin("esbuild"), [entry, "--bundle", "--platform=node", "--format=esm", "--target=node20", "--packages=external", "--log-level=warning", `--outfile=${partial}`]);
  renameSync(partial, outfile);
}

export function buildApp() {
  if (stale(path.join(root, "dist", "index.html"), ["src", "public", "index.html", "vite.config.ts"])) run("the browser app", bin("vite"), ["build", "--logLevel", "warn"]);
}

export function buildHost() {
  if (stale(HOST_ENTRY, HOST_SOURCES)) esbuild("the host", path.join(root, "src/host/main.ts"), HOST_ENTRY);
}

export function buildBridge() {
  if (stale(BRIDGE_ENTRY, HOST_SOURCES)) esbuild("the stdio bridge", path.join(root, "src/bridge/stdio-bridge.ts"), BRIDGE_ENTRY);
}
