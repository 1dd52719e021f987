import { readFileSync } from "node:fs";
import path from "node:path";
import { BUNDLE_BUDGET_KIB, initialBundleKib, questionBundleKib } from "./bundle-size";

const root = path.resolve(import.meta.dirname, "..");
const initial = initialBundleKib(path.join(root, "dist"));
const question = await questionBundleKib(root);
const rows = [
  { name: "initial JavaScript", kib: initial, budget: BUNDLE_BUDGET_KIB.initial },
  { name: "question panel", kib: question, budget: BUNDLE_BUDGET_KIB.question },
];
let failed = false;
for (const row of rows) {
  const ok = row.kib <= row.budget;
  failed ||= !ok;
  console.log(`${ok ? "ok  " : "OVER"} ${row.name}: ${row.kib.toFixed(1)} KiB gzip (budget ${row.budget} KiB)`);
}
// The service worker is a classic script: a chunk it imports (code shared with the page) would keep it from starting.
const worker = readFileSync(path.join(root, "dist", "sw.js"), "utf8");
// An export is as bad: the page would import from the worker's script, which rollup only does when they share code.
const workerImports = /(?:^|[;}])\s*(?:import|export)\s*[{*"'`]|\bimport\s*\(/.test(worker);
console.log(`${workerImports ? "FAIL" : "ok  "} service worker: ${workerImports ? "imports or exports a chunk" : "one script, importing and exporting nothing"}`);
if (failed || workerImports) {
  console.error(workerImports ? "The service worker shares a chunk with the page: keep what it imports out of the page's chunks (vite.config.ts, WORKER_MODULES)." : "A bundle is over its budget.");
  process.exit(1);
}
