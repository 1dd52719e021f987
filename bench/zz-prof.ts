import { WebSocket } from "ws";
import { Session } from "node:inspector/promises";
import { writeFileSync } from "node:fs";
import { createScriptedModel } from "../src/host/models/scripted";
import { startServer } from "../src/host/server";
const BATCH = JSON.stringify([
  { id: "pkg", header: "Tooling", question: "Which package manager should the project use?", options: [{ label: "pnpm (Recommended)", description: "Fast, strict, disk-efficient" }, { label: "npm" }, { label: "yarn" }] },
  { id: "checks", question: "Which checks should run in CI?", multiSelect: true, options: [{ label: "lint" }, { label: "typecheck" }, { label: "unit tests" }, { label: "e2e" }] },
  { id: "name", question: "What should the package be called?" },
]);
const ANS = [{ id: "pkg", selected: ["pnpm (Recommended)"] }, { id: "checks", selected: ["lint", "unit tests"] }, { id: "name", selected: [], custom: "parley" }];
const host = await startServer({ host: "127.0.0.1", port: 0, dataDir: ":memory:", model: createScriptedModel(), staticDir: "/nonexistent", rateLimits: false, maxPending: 100000 });
const s = (await (await fetch(`${host.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).json()) as any;
const ws = new WebSocket(`${host.url.replace(/^http/, "ws")}/api/mux`);
let waiter: ((f: any) => boolean) | null = null;
ws.on("message", (d: Buffer) => { const f = JSON.parse(d.toString()); if (waiter && waiter(f)) waiter = null; });
await new Promise((r) => ws.once("open", r));
await new Promise((r) => setTimeout(r, 200));
async function rt() {
  let rpcId = "";
  const got = new Promise<void>((res) => { waiter = (f) => { if (f.type === "question/requested") { rpcId = f.rpcId; res(); return true; } return false; }; });
  const settled = host.userInteraction.ask({ questions: JSON.parse(BATCH), sessionId: s.session.id });
  await got;
  const resolved = new Promise<void>((res) => { waiter = (f) => { if (f.type === "question/resolved" && f.rpcId === rpcId) { res(); return true; } return false; }; });
  const r = await fetch(`${host.url}/api/respond`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "answer", rpcId, sessionId: s.session.id, answers: ANS }) });
  await r.json();
  await resolved; await settled;
}
for (let i = 0; i < 500; i++) await rt();
const N = Number(process.argv[2] ?? 3000);
const prof = process.argv[3] === "prof";
const session = new Session(); session.connect();
if (prof) { await session.post("Profiler.enable"); await session.post("Profiler.setSamplingInterval", { interval: 100 }); await session.post("Profiler.start"); }
const t0 = performance.now();
for (let i = 0; i < N; i++) await rt();
const ms = (performance.now() - t0) / N;
console.log("ms per rt", ms.toFixed(4));
if (prof) { const { profile } = await session.post("Profiler.stop"); writeFileSync("/tmp/rt.cpuprofile", JSON.stringify(profile)); }
process.exit(0);
