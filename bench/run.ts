import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { browserMetrics } from "./browser-bench";
import { sidebarMetrics } from "./sidebar-bench";
import { startMetrics } from "./start-bench";
import { streamMetrics } from "./stream-bench";
import { BUNDLE_TARGET_KIB, initialBundleKib, questionBundleKib } from "./bundle-size";
import { progress, type Spread } from "./stats";
import { postgresBinDir } from "../src/testing/host/postgres";

const root = path.resolve(import.meta.dirname, "..");

type Target = { op: "<=" | ">=" | "=="; value: number } | null;
const TARGETS: Record<string, Target> = {
  "host.start.ratio": { op: "<=", value: 5 },
  "host.start.ms": null,
  "host.idle_rss_mb": { op: "<=", value: 120 },
  "host.roundtrip.ratio": { op: ">=", value: 0.8 },
  "host.roundtrip.p50_ms": null,
  "host.roundtrip.p99_ms": null,
  "host.fanout.p95_ms": null,
  "host.pending.bytes_per_question": { op: "<=", value: 2500 },
  "host.replay.ms_per_1000": null,
  "host.idle_socket.bytes": null,
  "mcp.roundtrip.ratio": { op: ">=", value: 0.5 },
  "mcp.sdk_floor.ratio": { op: ">=", value: 0.8 },
  "mcp.roundtrip.p50_ms": null,
  "mcp.roundtrip.p99_ms": null,
  "mcp.sessions.bytes_per_idle_session": null,
  "cluster.answered.ratio": null,
  "cluster.cpu_per_answer.ratio": { op: "<=", value: 2 },
  "cluster.fanout.p95_ms": null,
  "cluster.replay.ms_per_1000": null,
  "browser.bundle.initial_gzip_kb": { op: "<=", value: BUNDLE_TARGET_KIB.initial },
  "browser.bundle.question_gzip_kb": { op: "<=", value: BUNDLE_TARGET_KIB.question },
  "browser.bundle.markdown_in_initial": { op: "==", value: 0 },
  "browser.keystroke.p95_ratio": { op: "<=", value: 1.1 },
  "browser.panel_step.p95_ratio": { op: "<=", value: 1.25 },
  "browser.question_arrival.p95_ratio": { op: "<=", value: 1.5 },
  "browser.question_arrival.p50_ratio": { op: "<=", value: 1.5 },
  "browser.panel.long_tasks": { op: "==", value: 0 },
  "browser.render.transcript_commits_per_keystroke": { op: "==", value: 0 },
  "browser.sidebar.render_ms_1000_chats": { op: "<=", value: 3 },
  "browser.sidebar.search_keystroke.p95_ms": { op: "<=", value: 16 },
  "agent.stream_chunk.p95_ratio": { op: "<=", value: 1.5 },
  "agent.stream_chunk.long_tasks": { op: "==", value: 0 },
};

/** The parts `npm run bench -- <part>…` may pick; with none named, every part runs. */
const PARTS = ["bundle", "start", "host", "mcp", "cluster", "browser", "sidebar", "stream"] as const;
type Part = (typeof PARTS)[number];
const picked = process.argv.slice(2);
const unknownPart = picked.find((name) => !(PARTS as readonly string[]).includes(name));
if (unknownPart !== undefined) throw new Error(`unknown bench part ${unknownPart}: pick from ${PARTS.join(", ")}`);
const runs = (part: Part) => picked.length === 0 || picked.includes(part);

function run(command: string, args: string[], options: { capture?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", options.capture ? "pipe" : "ignore", "inherit"] });
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`))));
  });
}

/** The files that hold react-markdown's code: found by option names its own source reads, which survive minification. */
function markdownChunks(distDir: string): string[] {
  const assets = path.join(distDir, "assets");
  return readdirSync(assets).filter((file) => {
    if (!file.endsWith(".js")) return false;
    const code = readFileSync(path.join(assets, file), "utf8");
    return code.includes("skipHtml") && code.includes("allowedElements");
  });
}

function initialScripts(distDir: string): string[] {
  const html = readFileSync(path.join(distDir, "index.html"), "utf8");
  return [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((match) => match[1]!);
}

function met(name: string, value: number): string {
  const target = TARGETS[name];
  if (!target) return "—";
  const ok = target.op === "<=" ? value <= target.value : target.op === ">=" ? value >= target.value : value === target.value;
  return ok ? "yes" : "NO";
}

function format(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(value % 1 === 0 ? 0 : 2);
}

const metrics: Record<string, number> = {};
const notes: Record<string, string | number> = {};
/** The lowest and highest per-round value of the metrics measured in rounds: shown beside the median, never held to a target. */
const spreads: Record<string, Spread> = {};
const started = Date.now();

const distDir = mkdtempSync(path.join(tmpdir(), "parley-bench-dist-"));
try {
  if (runs("bundle") || runs("browser") || runs("sidebar") || runs("stream")) {
    progress("building the browser app (vite build)");
    await run(path.join(root, "node_modules/.bin/vite"), ["build", "--outDir", distDir, "--emptyOutDir", "--logLevel", "warn"]);
  }
  if (runs("bundle")) {
    metrics["browser.bundle.initial_gzip_kb"] = initialBundleKib(distDir);
    progress("bundling the question panel alone");
    metrics["browser.bundle.question_gzip_kb"] = await questionBundleKib(root);
    const initial = new Set(initialScripts(distDir));
    const markdown = markdownChunks(distDir);
    if (markdown.length === 0) throw new Error("react-markdown was not found in any chunk: the detection string changed");
    metrics["browser.bundle.markdown_in_initial"] = markdown.filter((file) => initial.has(file)).length;
    notes["browser.bundle.markdown_chunks"] = markdown.join(", ");
  }

  if (runs("start")) {
    const start = await startMetrics();
    Object.assign(metrics, start.metrics);
    Object.assign(notes, start.notes);
  }

  if (runs("host")) {
    progress("host: starting the host bench in a child process with --expose-gc");
    const hostOut = await run(process.execPath, ["--expose-gc", "--import", "tsx", path.join(root, "bench/host-bench.ts")], { capture: true });
    const host = JSON.parse(hostOut.trim().split("\n").pop()!) as { metrics: Record<string, number>; notes: Record<string, string | number> };
    Object.assign(metrics, host.metrics);
    Object.assign(notes, host.notes);
  }

  if (runs("mcp")) {
    progress("mcp: starting the /mcp bench in a child process with --expose-gc");
    const mcpOut = await run(process.execPath, ["--expose-gc", "--import", "tsx", path.join(root, "bench/mcp-bench.ts")], { capture: true });
    const mcp = JSON.parse(mcpOut.trim().split("\n").pop()!) as { metrics: Record<string, number>; notes: Record<string, string | number> };
    Object.assign(metrics, mcp.metrics);
    Object.assign(notes, mcp.notes);
  }

  if (runs("cluster") && postgresBinDir() === null) notes["cluster.skipped"] = "no Postgres binaries (initdb, postgres) on this machine";
  else if (runs("cluster")) {
    progress("cluster: three hosts on a throwaway Postgres against one SQLite host, in a child process");
    const clusterOut = await run(process.execPath, ["--import", "tsx", path.join(root, "bench/cluster-bench.ts")], { capture: true });
    const cluster = JSON.parse(clusterOut.trim().split("\n").pop()!) as { metrics: Record<string, number>; notes: Record<string, string | number> };
    Object.assign(metrics, cluster.metrics);
    Object.assign(notes, cluster.notes);
  }

  if (runs("browser")) {
    const browser = await browserMetrics(distDir);
    Object.assign(metrics, browser.metrics);
    Object.assign(notes, browser.notes);
    Object.assign(spreads, browser.spreads);
  }

  if (runs("sidebar")) {
    const sidebar = await sidebarMetrics(distDir);
    Object.assign(metrics, sidebar.metrics);
    Object.assign(notes, sidebar.notes);
    Object.assign(spreads, sidebar.spreads);
  }

  if (runs("stream")) {
    const stream = await streamMetrics(distDir);
    Object.assign(metrics, stream.metrics);
    Object.assign(notes, stream.notes);
    Object.assign(spreads, stream.spreads);
  }
} finally {
  rmSync(distDir, { recursive: true, force: true });
}

const spreadText = (name: string) => {
  const spread = spreads[name];
  return spread ? `${format(spread.min)}–${format(spread.max)} (${spread.rounds} rounds)` : "";
};
const rows = Object.keys(TARGETS)
  .filter((name) => picked.length === 0 || name in metrics)
  .map((name) => {
    const target = TARGETS[name];
    return [name, format(metrics[name] ?? Number.NaN), target ? `${target.op} ${target.value}` : "—", met(name, metrics[name] ?? Number.NaN), spreadText(name)];
  });
const header = ["metric", "value", "target", "met?", "spread (median of rounds)"];
const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => row[column]!.length)));
const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd();
console.log(line(header));
for (const row of rows) console.log(line(row));
console.log("");
for (const [name, value] of Object.entries(notes)) console.log(`${name}: ${value}`);
console.log(`\nbench took ${Math.round((Date.now() - started) / 1000)} s`);
writeFileSync(path.join(root, "bench-results.json"), `${JSON.stringify({ parts: picked.length === 0 ? "all" : picked, metrics, spreads, notes }, null, 2)}\n`);
