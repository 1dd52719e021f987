import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Rollup } from "vite";
import react from "@vitejs/plugin-react";

/**
 * Budgets in KiB of gzip, checked by `npm run check:bundle` after every build, so the bundles never grow unnoticed.
 * The question panel's grew from 15 to 20 with protocol 2 (seven typed answer kinds, required questions, bounds and
 * defaults, in both languages) and past 21 with the compact stepper's marks and the bounds shown up front, and came
 * back to 20 once the answers' checks stopped pulling in every protocol schema (they import the question schemas alone).
 * The initial script came down from 114 to its target of 100 once zod's checks of the host's frames and bodies, the
 * keyboard shortcuts dialog, an MCP call's details and the `Allowed tools` menu loaded in chunks of their own and
 * everything the first screen imports was one chunk; react-dom alone is 62 of it. It came to 97 once the catalogues the
 * first screen imports left their Chinese to a chunk loaded with that locale (`src/app/zh-CN.ts`). The question panel's
 * came to 19 when its Chinese went to that chunk too.
 */
export const BUNDLE_BUDGET_KIB = { initial: 100, question: 21 } as const;
/** The round's targets, which `npm run bench` reports against. */
export const BUNDLE_TARGET_KIB = { initial: 100, question: 21 } as const;

const gzipKib = (bytes: Uint8Array | string) => gzipSync(bytes, { level: 9 }).length / 1024;

/** Gzip size of the JavaScript that `dist/index.html` loads before anything is imported lazily. */
export function initialBundleKib(distDir: string): number {
  const html = readFileSync(path.join(distDir, "index.html"), "utf8");
  const urls = new Set<string>();
  for (const match of html.matchAll(/<script[^>]*\ssrc="([^"]+\.js)"/g)) urls.add(match[1]!);
  for (const match of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g)) urls.add(match[1]!);
  if (urls.size === 0) throw new Error(`no script found in ${distDir}/index.html: run "vite build" first`);
  let total = 0;
  for (const url of urls) total += gzipKib(readFileSync(path.join(distDir, url.replace(/^\//, ""))));
  return total;
}

/** Every JavaScript file of a build, for reports. */
export function listChunks(distDir: string): { file: string; gzipKib: number }[] {
  const assets = path.join(distDir, "assets");
  return readdirSync(assets)
    .filter((file) => file.endsWith(".js"))
    .map((file) => ({ file, gzipKib: gzipKib(readFileSync(path.join(assets, file))) }));
}

const THIRD_PARTY = /^(react|react-dom|react\/.*|react-dom\/.*|@radix-ui\/.*|zustand.*|zod.*|react-markdown|micromark-extension-gfm|mdast-util-gfm|lowlight)$/;
/** The markdown renderer and the code highlighter load lazily on their own, so they are not the panel's code either. */
const LAZY_SHARED = /[\\/]ui[\\/](markdown-renderer|highlight)(\.tsx?)?$/;

/** Gzip size of the question panel's own code: the feature bundled alone, React, Radix and zod left out. */
export async function questionBundleKib(root: string): Promise<number> {
  const output = (await build({
    root,
    configFile: false,
    logLevel: "silent",
    plugins: [react()],
    build: {
      write: false,
      minify: true,
      lib: { entry: path.join(root, "src/features/question/question-panel.tsx"), formats: ["es"], fileName: "question" },
      rollupOptions: { external: (id) => THIRD_PARTY.test(id) || LAZY_SHARED.test(id) },
    },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const outputs = Array.isArray(output) ? output : [output];
  let total = 0;
  for (const result of outputs) {
    for (const chunk of result.output) {
      if (chunk.type === "chunk") total += gzipKib(chunk.code);
    }
  }
  return total;
}
