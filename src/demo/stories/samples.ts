import type { QuestionItem } from "../../protocol/schemas";

/** Questions and a plan that stories of several groups share. */
export const packageManager: QuestionItem = {
  id: "pkg",
  header: "Tooling",
  question: "Which package manager should the new workspace use?",
  options: [
    { label: "pnpm", description: "Fast, strict, content-addressed store." },
    { label: "npm", description: "Ships with Node; nothing to install." },
    { label: "Yarn", description: "Plug'n'Play installs, zero-installs in the repo." },
  ],
};

export const recommendedDatabase: QuestionItem = {
  id: "db",
  header: "Storage",
  question: "Where should the sessions be stored?",
  options: [
    { label: "SQLite (Recommended)", description: "One file next to the app; no server to run." },
    { label: "PostgreSQL", description: "A database server; best when several hosts share data." },
    { label: "JSON files", description: "Easy to read, slow to search." },
  ],
};

export const browsers: QuestionItem = {
  id: "browsers",
  header: "Testing",
  question: "Which browsers must the end-to-end suite cover?",
  multiSelect: true,
  options: [
    { label: "Chromium", description: "Debian's package, already installed." },
    { label: "Firefox" },
    { label: "WebKit", description: "Closest to Safari on iOS." },
    { label: "Edge" },
  ],
};

export const projectName: QuestionItem = {
  id: "name",
  header: "Naming",
  question: "What should the project be called?",
};

export const planMarkdown = [
  "## Goal",
  "Move the session store from JSON files to **SQLite** without losing a transcript.",
  "",
  "## Steps",
  "1. Add `better-sqlite3` 12.x and a `sessions` table with `id`, `title`, `created_at`, `updated_at`.",
  "2. Write a one-off importer that reads every `data/*.json` file inside a single transaction.",
  "3. Switch reads to SQLite behind the existing `SessionRepository` interface.",
  "4. Keep the JSON files for one release, then delete them.",
  "",
  "## Risks",
  "- A crash mid-import: the transaction rolls back, and the importer can run again.",
  "- Very long transcripts: rows are streamed, never loaded at once.",
  "",
  "```sql",
  "CREATE TABLE sessions (",
  "  id TEXT PRIMARY KEY,",
  "  title TEXT NOT NULL,",
  "  created_at TEXT NOT NULL,",
  "  updated_at TEXT NOT NULL",
  ");",
  "```",
  "",
  "| Step | Estimate |",
  "| --- | --- |",
  "| Schema | 1 h |",
  "| Importer | 3 h |",
  "| Switch-over | 2 h |",
  "",
  "See the [better-sqlite3 docs](https://github.com/WiseLibs/better-sqlite3) for the API.",
].join("\n");

export const thirtyRegions: QuestionItem = {
  id: "region",
  header: "Deployment",
  question: "Which region should host the staging environment?",
  options: Array.from({ length: 30 }, (_, index) => ({
    label: `Region ${String(index + 1).padStart(2, "0")}`,
    description: index % 3 === 0 ? `Data centre ${index + 1}, about ${20 + index * 7} ms from you.` : undefined,
  })).map((option) => (option.description ? option : { label: option.label })),
};
