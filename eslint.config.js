import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

const FEATURES = ["approval", "attention", "chat", "mcp", "question", "sessions"];
/** An import of one of our own folders, however many levels up: `../client/mux`, `../../features/chat/x`. */
const ours = (...folders) => ({ regex: `^(\\.\\./)+(${folders.join("|")})/`, message: "docs/architecture.md: this layer may not import that one." });
const HOST_BASE = [
  { group: ["react", "react-*"], message: "The host never imports React." },
  ours("client", "store", "features", "ui", "app", "demo", "i18n", "testing"),
];
/** Each room of the host and what it may import besides protocol/: the shared root files and the rooms below it. */
const SHARED = ["log", "storage-error", "config-issues", "store"];
const HOST_ROOMS = {
  models: [],
  pending: ["log"],
  fence: ["log", "store"],
  downlink: ["log", "fence"],
  tools: ["log", "models", "pending"],
  sessions: [...SHARED, "models", "pending", "tools"],
  acp: [...SHARED, "pending", "sessions", "tools"],
  agents: [...SHARED, "models", "pending", "sessions", "tools", "acp"],
  "mcp-client": [...SHARED, "pending", "tools"],
  pg: [...SHARED, "downlink", "pending", "sessions", "tools"],
  http: [...SHARED, "fence", "pending", "sessions", "mcp-client", "pg"],
  "mcp-server": [...SHARED, "fence", "http", "pending", "sessions", "tools"],
  push: [...SHARED, "fence", "http", "pg"],
};
const NOT_NODE = { group: ["node:*"], message: "Browser code runs without Node." };

export default tseslint.config(
  { ignores: ["dist", "build", "node_modules", "test-results", "playwright-report", "data"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ["**/*.{js,mjs}"], languageOptions: { globals: globals.node } },
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name='catch'] > ArrowFunctionExpression[body.type='BlockStatement'][body.body.length=0]",
          message: "Do not swallow errors with an empty catch handler.",
        },
      ],
    },
  },
  // The layers of docs/architecture.md: protocol ← host, client, store ← features ← app, demo.
  {
    files: ["src/host/**/*.ts", "bin/**/*.mjs"],
    rules: { "no-restricted-imports": ["error", { patterns: HOST_BASE }] },
  },
  // The host's rooms (docs/architecture.md, "The host's rooms"): each imports only the rooms below it and the shared root files.
  ...Object.entries(HOST_ROOMS).map(([room, below]) => ({
    files: [`src/host/${room}/**/*.ts`],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [...HOST_BASE, { regex: `^\\.\\./(?!(${below.join("|") || "-"})(/|$))[^.]`, message: `docs/architecture.md: ${room}/ imports only ${below.join(", ") || "protocol"} of the host.` }] },
      ],
    },
  })),
  {
    files: ["src/host/http/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^\\.\\./(store|pg/)", allowTypeImports: true, message: "Routes reach storage through the services, never the store itself." }] },
      ],
    },
  },
  {
    files: ["src/client/**/*.{ts,tsx}", "src/ui/**/*.{ts,tsx}", "src/i18n/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [NOT_NODE, ours("host", "features", "app", "demo")] }],
    },
  },
  {
    files: ["src/store/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [NOT_NODE, ours("host", "client", "features", "app", "demo")] }],
    },
  },
  ...FEATURES.map((feature) => ({
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            NOT_NODE,
            ours("host", "app", "demo"),
            { regex: `^(\\.\\./)+(features/)?(${FEATURES.filter((other) => other !== feature).join("|")})/`, message: "A feature never imports another feature; app and demo assemble them." },
          ],
        },
      ],
    },
  })),
  {
    files: ["src/app/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [NOT_NODE, ours("host", "demo", "testing")] }],
    },
  },
  {
    files: ["src/demo/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [NOT_NODE, ours("host", "testing")] }],
    },
  },
  {
    files: ["src/protocol/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["react", "react-*", "node:*"], message: "protocol is shared by host and browser." }, { regex: "^\\.\\./", message: "protocol imports nothing of ours." }] }],
    },
  },
  // Size: no source file over 400 lines, no function over ~150. Production code only; tests and test support are exempt.
  {
    files: ["src/**/*.{ts,tsx}", "bench/**/*.ts", "bin/**/*.mjs", "scripts/**/*.mjs"],
    ignores: [
      "src/**/*.test.{ts,tsx}",
      "src/testing/**",
    ],
    rules: {
      "max-lines": ["error", { max: 400 }],
      "max-lines-per-function": ["error", { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
  // Tests may assemble what they test (a feature with its neighbours, a browser module against a real host).
  {
    files: ["src/**/*.test.{ts,tsx}", "src/testing/**"],
    rules: { "no-restricted-imports": "off", "@typescript-eslint/no-restricted-imports": "off" },
  },
);
