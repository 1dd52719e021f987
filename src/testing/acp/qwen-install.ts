import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";

/** The Qwen Code release the e2e tests run. */
export const QWEN_VERSION = "0.24.4";

/** Where it is installed on first use: PARLEY_QWEN_CACHE, else node_modules/.cache/parley-qwen-<version> of this checkout. */
export function qwenCacheDir(): string {
  return process.env.PARLEY_QWEN_CACHE ?? path.resolve(import.meta.dirname, "../../../node_modules/.cache", `parley-qwen-${QWEN_VERSION}`);
}

/** The `qwen` binary, installed with npm into the cache folder when it is not there yet (about 145 MB); throws when npm fails. */
export function ensureQwen(): string {
  const dir = qwenCacheDir();
  const bin = path.join(dir, "node_modules", ".bin", "qwen");
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--no-save", "--prefix", dir, `@qwen-code/qwen-code@${QWEN_VERSION}`], { stdio: "inherit", timeout: 600_000 });
  if (!existsSync(bin)) throw new Error(`npm installed @qwen-code/qwen-code@${QWEN_VERSION} into ${dir} but ${bin} is missing`);
  return bin;
}
