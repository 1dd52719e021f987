import { createScriptedModel } from "../src/host/models/scripted";
import { startServer } from "../src/host/server";
const host = await startServer({ host: "127.0.0.1", port: 0, dataDir: ":memory:", model: createScriptedModel(), staticDir: "/nonexistent", rateLimits: false });
const r = await fetch(`${host.url}/api/respond`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "answer", rpcId: "x", sessionId: "y", answers: [] }) });
console.log(r.status, [...r.headers].map(([k, v]) => `${k}: ${v}`).join("\n"), await r.text());
process.exit(0);
