import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { buildIdOf } from "./sw-build-id";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function publicDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "parley-public-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

it("changes with a bundle file's name and with the name or bytes of a file copied from public/, and with nothing else", () => {
  const bundle = ["assets/index-a1.js", "index.html"];
  const files = { "manifest.webmanifest": '{"name":"Parley"}', "icons/icon-192.png": "png" };
  const id = buildIdOf(bundle, publicDir(files));
  expect(id).toMatch(/^[0-9a-f]{16}$/);
  // The same build in another folder, its files listed in another order.
  expect(buildIdOf([...bundle].reverse(), publicDir(files))).toBe(id);
  const changed = [
    buildIdOf(["assets/index-b2.js", "index.html"], publicDir(files)),
    buildIdOf(bundle, publicDir({ ...files, "manifest.webmanifest": '{"name":"Parley 2"}' })),
    buildIdOf(bundle, publicDir({ ...files, "icons/icon-512.png": "png" })),
    buildIdOf(bundle, ""),
  ];
  expect(new Set([id, ...changed]).size).toBe(5);
});
