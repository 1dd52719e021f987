// `npm start`: builds what is missing or stale, then runs the compiled host in this same process.
import { pathToFileURL } from "node:url";
import { buildApp, buildHost, HOST_ENTRY } from "./build.mjs";

try {
  buildApp();
  buildHost();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
await import(pathToFileURL(HOST_ENTRY).href);
