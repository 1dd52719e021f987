// Builds the browser app when dist/ is missing or older than its sources, then runs the host.
import { spawnSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const built = path.join(root, "dist", "index.html");

function newestMtime(target) {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const sources = ["src", "public", "index.html", "vite.config.ts"].map((p) => path.join(root, p)).filter(existsSync);
const stale = !existsSync(built) || Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs;
if (stale) {
  console.log("Building the browser app…");
  const result = spawnSync(path.join(root, "node_modules", ".bin", "vite"), ["build", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const host = spawn(path.join(root, "node_modules", ".bin", "tsx"), [path.join(root, "src", "host", "main.ts")], { cwd: root, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => host.kill(signal));
host.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
