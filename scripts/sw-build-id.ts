import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

/**
 * A build's id: a hash of the name of every file the bundle writes (each named by its content's hash) and of every file
 * Vite copies from `public/` as it is (the manifest, the icons), with their bytes. The service worker carries it, so a
 * change to any of them is a new worker, and the shell it caches is never an older build's.
 */
export function buildIdOf(bundleFiles: readonly string[], publicDir: string): string {
  const hash = createHash("sha256");
  for (const file of [...bundleFiles].sort()) hash.update(`bundle ${file}\n`);
  const copied = publicDir === "" ? [] : (readdirSync(publicDir, { recursive: true }) as string[]).filter((file) => statSync(path.join(publicDir, file)).isFile()).sort();
  for (const file of copied) hash.update(`public ${file.split(path.sep).join("/")}\n`).update(readFileSync(path.join(publicDir, file)));
  return hash.digest("hex").slice(0, 16);
}

/** Writes the build id into `/sw.js` (its `__PARLEY_BUILD__`). */
export function serviceWorkerBuildId(): Plugin {
  let publicDir = "";
  return {
    name: "parley-service-worker-build-id",
    configResolved(config) {
      publicDir = config.publicDir;
    },
    generateBundle(_options, bundle) {
      const id = buildIdOf(Object.keys(bundle).filter((file) => file !== "sw.js"), publicDir);
      const worker = bundle["sw.js"];
      if (worker?.type === "chunk") worker.code = worker.code.replaceAll("__PARLEY_BUILD__", id);
    },
  };
}
