// Runs the host (scripted model by default) and Vite with HMR, which proxies /api to the host.
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const hostPort = process.env.PARLEY_DEV_HOST_PORT ?? "8787";
const children = [
  spawn(bin("tsx"), ["watch", path.join(root, "src", "host", "main.ts")], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, PORT: hostPort, PARLEY_ALLOWED_ORIGINS: process.env.PARLEY_ALLOWED_ORIGINS ?? "http://127.0.0.1:5173,http://localhost:5173" },
  }),
  spawn(bin("vite"), [], { cwd: root, stdio: "inherit" }),
];
const stop = (signal) => children.forEach((child) => child.kill(signal));
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
for (const child of children) child.on("exit", (code) => { stop("SIGTERM"); process.exitCode = code ?? 0; });
