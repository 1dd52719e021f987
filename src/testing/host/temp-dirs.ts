import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Temporary directories a test file makes, named `<prefix>XXXXXX`, and removes after each test. */
export function createTempDirs(prefix: string) {
  const dirs: string[] = [];
  return {
    make(): string {
      const dir = mkdtempSync(path.join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    removeAll(): void {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
