import { WebSocket } from "ws";
import { createScriptedModel } from "../src/host/models/scripted";
import { startServer } from "../src/host/server";
const BATCH = JSON.stringify([
  { id: "pkg", header: "Tooling", question: "Which package manager should the project use?", options: [{ label: "pnpm (Recommended)", description: "Fast, strict, disk-efficient" }, { label: "npm" }, { label: "yarn" }] },
  { id: "checks", question: "Which checks should run in CI?", multiSelect: true, options: [{ label: "lint" }, { label: "typecheck" }, { label: "unit tests" }, { label: "e2e" }] },
  { id: "name", question: "What should the package be called?" },
]);
const ANSWERS = [{ id: "pkg", selected: ["pnpm (Recommended)"] }, { id: "checks", selected: ["lint", "unit tests"] }, { id: "name", selected: [], custom: "parley" }];
const host = await startServer({ host: "127.0.0.1", port: 0, dataDir: ":memory:", model: createScriptedModel(), staticDir: "/nonexistent", rateLimits: false, maxPending: 200000 });
const sid = ((await (await fetch(`${host.url}/api/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).json()) as { session: { id: string } }).session.id;
const ws = new WebSocket(`${host.url.replace(/^http/, "ws")}/api/mux`);
let waiter: ((f: Record<string, unknown>) => boolean) | null = null;
let done: (() => void) | null = null;
ws.on("message", (d: Buffer) => { const f = JSON.parse(d.toString()); if (waiter && waiter(f)) { waiter = null; done!(); } });
await new Promise((r) => ws.once("open", r));
const next = (m: (f: Record<string, unknown>) => boolean) => new Promise<Record<string, unknown>>((r) => { waiter = (f) => { if (m(f)) { r(f); return true; } return false; }; done = () => {}; });
const N = Number(process.argv[2] ?? 3000);
const t0 = performance.now();
for (let i = 0; i < N; i++) {
  const req = next((f) => f.type === "question/requested");
  const settled = host.userInteraction.ask({ questions: JSON.parse(BATCH), sessionId: sid });
  const f = await req;
  const res = next((g) => g.type === "question/resolved" && g.rpcId === f.rpcId);
  const r = await (await fetch(`${host.url}/api/respond`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "answer", rpcId: f.rpcId, sessionId: sid, answers: ANSWERS }) })).json();
  if (!(r as { accepted: boolean }).accepted) throw new Error("rejected");
  await res; await settled;
}
console.log("per second", (N / ((performance.now() - t0) / 1000)).toFixed(0));
ws.terminate(); await host.close();
