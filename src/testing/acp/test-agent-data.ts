import type { CreateElicitationRequest, RequestPermissionRequest, SessionModeState } from "@agentclientprotocol/sdk";

/** What the scripted ACP agent (test-agent.ts) offers and asks, shared with the tests that check it. */
export const TEST_AGENT_MODES: SessionModeState = {
  currentModeId: "auto",
  availableModes: [
    { id: "default", name: "Default", description: "Ask before edits and commands" },
    { id: "auto", name: "Auto", description: "Act without asking" },
  ],
};

export const TEST_PERMISSION_OPTIONS = [
  { optionId: "proceed_always", name: "Always allow", kind: "allow_always" },
  { optionId: "cancel", name: "Reject", kind: "reject_once" },
  { optionId: "proceed_once", name: "Allow", kind: "allow_once" },
  { optionId: "never", name: "Never allow", kind: "reject_always" },
] as const satisfies RequestPermissionRequest["options"];

export const TEST_QWEN_QUESTIONS = [
  {
    question: "Which database should the app use?",
    header: "Database",
    options: [
      { label: "SQLite", description: "One file, no server" },
      { label: "Postgres", description: "A server, several hosts" },
    ],
    multiSelect: false,
  },
  {
    question: "Which checks should run?",
    header: "Checks",
    options: [
      { label: "Lint", description: "ESLint" },
      { label: "Types", description: "tsc" },
      { label: "Tests", description: "Vitest" },
    ],
    multiSelect: true,
  },
];

export const TEST_ELICITATION_SCHEMA = {
  type: "object",
  properties: {
    question_0: {
      type: "string",
      title: "Colour",
      description: "Which colour should the button be?",
      oneOf: [
        { const: "red", title: "Red", description: "Warm" },
        { const: "blue", title: "Blue", description: "Calm" },
      ],
    },
    question_0_custom: { type: "string", title: "Other", description: "Type your own answer, or add a note to the option you chose above (optional)." },
    question_1: {
      type: "array",
      title: "Sizes",
      description: "Which sizes should it come in?",
      items: { anyOf: [{ const: "s", title: "Small" }, { const: "m", title: "Medium" }, { const: "l", title: "Large" }] },
    },
    question_1_custom: { type: "string", title: "Other", description: "Type your own answer to add to your selection above (optional)." },
    reviewer: { type: "string", title: "Reviewer", description: "Whose email should get the review?", format: "email" },
  },
} satisfies Extract<CreateElicitationRequest, { mode: "form" }>["requestedSchema"];


/** Terminal output with colours, bold and underline, as `/stream` sends it. */
export const ANSI_OUTPUT = "\u001b[32m✓ 12 tests passed\u001b[0m\n\u001b[1;31m✗ 1 failed\u001b[0m: expected \u001b[4m2\u001b[24m\n";
