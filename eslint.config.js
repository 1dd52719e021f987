import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

const FEATURES = ["approval", "attention", "chat", "mcp", "question", "sessions"];
/** An import of one of our own folders, however many levels up: `../client/mux`, `../../features/chat/x`. */
const ours = (...folders) => ({ regex: `^(\\.\\./)+(${folders.join("|")})/`, message: "docs/architecture.md: this layer may not import that one." });
const NOT_NODE = { group: ["node:*"], message: "Browser code runs without Node." };

export default tseslint.config(
  { ignores: ["dist", "node_modules", "test-results", "playwright-report", "data"] },
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
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["react", "react-*"], message: "The host never imports React." }, ours("client", "store", "features", "ui", "app", "demo", "i18n")] }],
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
    files: ["src/app/**/*.{ts,tsx}", "src/demo/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [NOT_NODE, ours("host")] }],
    },
  },
  {
    files: ["src/protocol/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["react", "react-*", "node:*"], message: "protocol is shared by host and browser." }, { regex: "^\\.\\./", message: "protocol imports nothing of ours." }] }],
    },
  },
  // Tests may assemble what they test (a feature with its neighbours, a browser module against a real host).
  {
    files: ["src/**/*.test.{ts,tsx}", "src/**/testing/**"],
    rules: { "no-restricted-imports": "off" },
  },
);
