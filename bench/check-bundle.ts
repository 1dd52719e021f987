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
if (failed) {
  console.error("A bundle is over its budget.");
  process.exit(1);
}
