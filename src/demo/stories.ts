import { approvalQuestions } from "../protocol/approval";
import { elicitationQuestions } from "../protocol/elicitation";
import { planReviewQuestions } from "../protocol/plan-review";
import type { PendingRequest, QuestionItem, QuestionOrigin, ToolApproval } from "../protocol/schemas";
import type { DraftState, QuestionDraft } from "../features/question/draft";
import type { Locale } from "../i18n/locale";
import type { RetireReason } from "../store/state";

/** How the demo's fake host answers `POST /api/respond`. */
export const REPLIES = ["accept", "not-pending", "bad-response", "network-error", "slow"] as const;
export type DemoReply = (typeof REPLIES)[number];

/** An interaction the story runner performs once the panel is shown, to reach a state that needs one. */
export type StoryStep = "dismiss" | "submit";

/** Demo copy that belongs to one story: written in every UI language. */
export type Localized = Record<Locale, string>;

/** The story list's groups, in list order. */
export const GROUPS = ["questions", "forms", "approvals", "plans", "agents", "faults"] as const;
export type StoryGroup = (typeof GROUPS)[number];

/** One state of the composer slot a designer can open at `/demo#<id>`. */
export interface Story {
  id: string;
  /** Where the story is listed. */
  group: StoryGroup;
  title: Localized;
  /** What state it shows: the list entry's second line and the docs pane. */
  description: Localized;
  /** The rules of docs/protocol.md it illustrates, as they are written there: `approval-request` for `[approval-request]`. */
  rules: string[];
  /** The pending requests of one session, oldest first; the slot shows the first. */
  requests: PendingRequest[];
  /** The fake host's receipt when the story opens; the reply control can change it. */
  reply: DemoReply;
  /** Drafts seeded for the first request before the panel mounts, as a reload would restore them. */
  initialDraft?: DraftState;
  /** Performed on the first request after it mounts. */
  then?: StoryStep;
  /** Typed into the approval card's reason field once the card shows. */
  reason?: string;
  /** `while-typing`: the preview's message box has focus and text when the batch arrives. */
  arrival?: "while-typing";
  /** Shows the notice left when the first request went away for this reason, with the seeded drafts. */
  retired?: RetireReason;
  /** The playground: the first request is built from what is pasted on the page. */
  playground?: true;
}

/** The one session every story's requests belong to. */
export const DEMO_SESSION_ID = "demo-session";
const CREATED_AT = "2026-01-15T09:30:00.000Z";

function seed(index: number, collapsed: boolean, drafts: [string, QuestionDraft][] = []): DraftState {
  return { drafts: new Map(drafts), index, collapsed };
}

function typed(custom: string): QuestionDraft {
  return { selected: [], custom, skipped: false };
}

function request(rpcId: string, questions: QuestionItem[], origin?: QuestionOrigin): PendingRequest {
  return { rpcId, sessionId: DEMO_SESSION_ID, questions, createdAt: CREATED_AT, ...(origin ? { origin } : {}) };
}

/** An MCP server's tool call waiting for Allow once / Allow for this chat / Deny (docs/protocol.md approval-request). */
function approvalRequest(rpcId: string, approval: ToolApproval): PendingRequest {
  return { ...request(rpcId, approvalQuestions(approval), { kind: "mcp-server", name: approval.server }), approval };
}

/** An MCP server's form elicitation, mapped to questions as the host maps it (docs/protocol.md elicitation-mapping). */
function formRequest(rpcId: string, server: string, message: string, requestedSchema: Record<string, unknown>): PendingRequest {
  const mapped = elicitationQuestions(requestedSchema, message);
  if (!mapped.ok) throw new Error(`demo form ${rpcId}: ${mapped.reason}`);
  return request(rpcId, mapped.questions, { kind: "mcp-server", name: server });
}

/** A one-property form: the smallest story of one field kind. */
function oneField(rpcId: string, name: string, schema: Record<string, unknown>, required = false): PendingRequest {
  return formRequest(rpcId, "signup", "Finish setting up your account.", { type: "object", properties: { [name]: schema }, ...(required ? { required: [name] } : {}) });
}

const packageManager: QuestionItem = {
  id: "pkg",
  header: "Tooling",
  question: "Which package manager should the new workspace use?",
  options: [
    { label: "pnpm", description: "Fast, strict, content-addressed store." },
    { label: "npm", description: "Ships with Node; nothing to install." },
    { label: "Yarn", description: "Plug'n'Play installs, zero-installs in the repo." },
  ],
};

const recommendedDatabase: QuestionItem = {
  id: "db",
  header: "Storage",
  question: "Where should the sessions be stored?",
  options: [
    { label: "SQLite (Recommended)", description: "One file next to the app; no server to run." },
    { label: "PostgreSQL", description: "A database server; best when several hosts share data." },
    { label: "JSON files", description: "Easy to read, slow to search." },
  ],
};

const browsers: QuestionItem = {
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

const projectName: QuestionItem = {
  id: "name",
  header: "Naming",
  question: "What should the project be called?",
};

const planMarkdown = [
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

const thirtyRegions: QuestionItem = {
  id: "region",
  header: "Deployment",
  question: "Which region should host the staging environment?",
  options: Array.from({ length: 30 }, (_, index) => ({
    label: `Region ${String(index + 1).padStart(2, "0")}`,
    description: index % 3 === 0 ? `Data centre ${index + 1}, about ${20 + index * 7} ms from you.` : undefined,
  })).map((option) => (option.description ? option : { label: option.label })),
};

/** Every story of the demo page, in list order. Adding a story is adding an object here. */
export const STORIES: Story[] = [
  {
    id: "single-select",
    group: "questions",
    rules: ["answer-rules"],
    title: { en: "Single-select", "zh-CN": "单选" },
    description: { en: "One question, three options with descriptions.", "zh-CN": "一个问题，三个带说明的选项。" },
    requests: [request("demo-single-select", [packageManager])],
    reply: "accept",
  },
  {
    id: "recommended-option",
    group: "questions",
    rules: ["answer-rules"],
    title: { en: "Recommended option", "zh-CN": "推荐选项" },
    description: {
      en: "A label ending in (Recommended) shows a badge and is never preselected.",
      "zh-CN": "以 (Recommended) 结尾的选项显示徽章，且从不预先选中。",
    },
    requests: [request("demo-recommended", [recommendedDatabase])],
    reply: "accept",
  },
  {
    id: "multi-select",
    group: "questions",
    rules: ["answer-rules"],
    title: { en: "Multi-select", "zh-CN": "多选" },
    description: { en: "Checkboxes; choices combine with typed text.", "zh-CN": "复选框；所选项可与输入的文字组合。" },
    requests: [request("demo-multi-select", [browsers])],
    reply: "accept",
  },
  {
    id: "optionless",
    group: "questions",
    rules: ["answer-rules"],
    title: { en: "Optionless", "zh-CN": "无选项" },
    description: { en: "No options: a focused text area only.", "zh-CN": "没有选项：只有获得焦点的文本框。" },
    requests: [request("demo-optionless", [projectName])],
    reply: "accept",
  },
  {
    id: "mixed-batch",
    group: "questions",
    rules: ["answer-rules"],
    title: { en: "Mixed batch of four", "zh-CN": "四个问题的混合批次" },
    description: {
      en: "Single, recommended, multi and optionless questions in one request.",
      "zh-CN": "一个请求中包含单选、推荐、多选和无选项问题。",
    },
    requests: [request("demo-mixed-batch", [packageManager, recommendedDatabase, browsers, projectName])],
    reply: "accept",
  },
  {
    id: "long-text",
    group: "questions",
    rules: ["limits"],
    title: { en: "Long labels and descriptions", "zh-CN": "超长标签与说明" },
    description: { en: "Wrapping headers, questions, labels and descriptions.", "zh-CN": "标题、问题、标签和说明的换行。" },
    requests: [
      request("demo-long-text", [
        {
          id: "migration",
          header: "A deliberately long header that keeps going to show how the eyebrow wraps",
          question:
            "The nightly import failed halfway through yesterday's run, leaving about four thousand half-written rows in the staging database; how should the agent clean up before it retries the import tonight?",
          options: [
            {
              label: "Roll back every row written after the last successful checkpoint and replay the import from there (Recommended)",
              description:
                "Safest: the checkpoint table records the last batch that committed, so nothing written before it is touched. Takes about forty minutes on the staging hardware and needs no manual review afterwards.",
            },
            {
              label: "Delete the whole staging database and import everything again from the upstream export",
              description:
                "Simple and leaves no trace of the failed run, but the full import takes six hours and the staging environment is unusable for everyone else while it runs.",
            },
            {
              label: "Leave the half-written rows, mark them as suspect, and let the morning report list them for a human",
              description: "Fastest tonight, but somebody has to read the report and decide row by row.",
            },
          ],
        },
      ]),
    ],
    reply: "accept",
  },
  {
    id: "thirty-options",
    group: "questions",
    rules: ["limits"],
    title: { en: "30 options", "zh-CN": "30 个选项" },
    description: { en: "A long option list that scrolls inside the panel.", "zh-CN": "在面板内滚动的长选项列表。" },
    requests: [request("demo-thirty-options", [thirtyRegions])],
    reply: "accept",
  },
  {
    id: "cjk-text",
    group: "questions",
    rules: ["answer-rules"],
    title: { en: "Chinese and Japanese text", "zh-CN": "中文与日文内容" },
    description: {
      en: "Model-written CJK text with a full-width （推荐） suffix; never translated.",
      "zh-CN": "模型撰写的中日文内容，带全角（推荐）后缀；从不翻译。",
    },
    requests: [
      request("demo-cjk-text", [
        {
          id: "framework",
          header: "技术选型",
          question: "新项目的前端框架用哪一个？",
          options: [
            { label: "React（推荐）", description: "生态最完善，团队已有经验。" },
            { label: "Vue", description: "上手快，模板语法直观。" },
            { label: "Svelte", description: "编译期框架，运行时很小。" },
          ],
        },
        {
          id: "greeting",
          header: "日本語",
          question: "ユーザーへの挨拶文はどれにしますか？",
          options: [
            { label: "こんにちは", description: "丁寧で一般的な挨拶です。" },
            { label: "ようこそ", description: "サービスへの歓迎を表します。" },
          ],
        },
      ]),
    ],
    reply: "accept",
  },
  {
    id: "plan-review",
    group: "plans",
    rules: ["tool-outcome"],
    title: { en: "Plan review", "zh-CN": "计划审阅" },
    description: {
      en: "A long markdown plan with an optional note, Approve, Keep planning and Chat about it.",
      "zh-CN": "长篇 Markdown 计划，带可选备注，以及批准、继续规划和先聊聊按钮。",
    },
    requests: [request("demo-plan-review", planReviewQuestions(planMarkdown))],
    reply: "accept",
  },
  {
    id: "submitting",
    group: "questions",
    rules: ["respond-claim"],
    title: { en: "Submitting", "zh-CN": "提交中" },
    description: { en: "A slow host: Submitting… for 3 s, then accepted.", "zh-CN": "较慢的主机：显示“提交中”3 秒后被接受。" },
    requests: [request("demo-submitting", [packageManager, projectName])],
    reply: "slow",
    initialDraft: seed(1, false, [
      ["pkg", { selected: ["pnpm"], custom: "", skipped: false }],
      ["name", typed("Parley")],
    ]),
    then: "submit",
  },
  {
    id: "rejected-receipt",
    group: "faults",
    rules: ["respond-pending"],
    title: { en: "Rejected receipt", "zh-CN": "回执被拒绝" },
    description: {
      en: "The host answers not-pending; the drafts stay and the reason shows.",
      "zh-CN": "主机返回 not-pending；草稿保留并显示原因。",
    },
    requests: [request("demo-rejected-receipt", [packageManager, projectName])],
    reply: "not-pending",
    initialDraft: seed(1, false, [
      ["pkg", { selected: ["npm"], custom: "", skipped: false }],
      ["name", { selected: [], custom: "Parley", skipped: false }],
    ]),
    then: "submit",
  },
  {
    id: "two-queued",
    group: "questions",
    rules: ["mux-replay"],
    title: { en: "Two queued requests", "zh-CN": "两个排队的请求" },
    description: { en: "Request 1 of 2; the second follows the first.", "zh-CN": "第 1 个请求，共 2 个；第二个紧随其后。" },
    requests: [request("demo-queued-first", [packageManager]), request("demo-queued-second", [recommendedDatabase])],
    reply: "accept",
  },
  {
    id: "collapsed",
    group: "questions",
    rules: ["answer-rules"],
    title: { en: "Collapsed bar", "zh-CN": "折叠栏" },
    description: { en: "Escape folds the panel to a one-line bar.", "zh-CN": "按 Esc 将面板折叠为一行。" },
    requests: [request("demo-collapsed", [packageManager, browsers])],
    reply: "accept",
    initialDraft: seed(0, true),
  },
  {
    id: "dismiss-confirmation",
    group: "questions",
    rules: ["respond-claim"],
    title: { en: "Dismiss confirmation", "zh-CN": "放弃确认" },
    description: { en: "Dismissing with drafts asks Discard your answers?", "zh-CN": "有草稿时放弃会先询问是否丢弃答案。" },
    requests: [request("demo-dismiss", [packageManager, projectName])],
    reply: "accept",
    initialDraft: seed(1, false, [["pkg", { selected: ["Yarn"], custom: "", skipped: false }]]),
    then: "dismiss",
  },
  {
    id: "arrives-while-typing",
    group: "questions",
    rules: ["mux-downlink"],
    title: { en: "Arrives while typing", "zh-CN": "输入时到达" },
    description: {
      en: "The batch arrives while the message box is being typed in: it takes no focus and no keys, and says how to turn to it (Alt+Q).",
      "zh-CN": "正在输入消息时批次到达：它不抢焦点、不接收按键，并提示如何切换过去（Alt+Q）。",
    },
    requests: [request("demo-arrives-while-typing", [packageManager, projectName])],
    reply: "accept",
    arrival: "while-typing",
  },
  {
    id: "stepper-states",
    group: "questions",
    rules: ["answer-rules"],
    title: { en: "Stepper with mixed states", "zh-CN": "步骤条的各种状态" },
    description: {
      en: "Question 1 answered, 2 skipped, 3 current, 4 not yet: each step is a button you can jump to.",
      "zh-CN": "第 1 题已回答，第 2 题已跳过，第 3 题为当前题，第 4 题尚未回答：每一步都是可跳转的按钮。",
    },
    requests: [request("demo-stepper-states", [packageManager, recommendedDatabase, browsers, projectName])],
    reply: "accept",
    initialDraft: seed(2, false, [
      ["pkg", { selected: ["pnpm"], custom: "", skipped: false }],
      ["db", { selected: [], custom: "", skipped: true }],
    ]),
  },
  {
    id: "review-step",
    group: "questions",
    rules: ["answer-rules"],
    title: { en: "Review step", "zh-CN": "检查步骤" },
    description: {
      en: "After the last question, with one skipped and one never answered: every answer with a Change link, then Submit.",
      "zh-CN": "最后一题之后，一题已跳过、一题未回答：列出每个回答并附“修改”链接，然后提交。",
    },
    requests: [request("demo-review-step", [packageManager, recommendedDatabase, browsers, projectName])],
    reply: "accept",
    initialDraft: seed(4, false, [
      ["pkg", { selected: ["npm"], custom: "", skipped: false }],
      ["db", { selected: [], custom: "", skipped: true }],
      ["name", { selected: [], custom: "Parley", skipped: false }],
    ]),
  },
  {
    id: "answered-elsewhere",
    group: "faults",
    rules: ["respond-claim"],
    title: { en: "Answered in another tab", "zh-CN": "已在另一个标签页中回答" },
    description: {
      en: "Another tab sent the answer first: this tab's unsent answers stay readable, with Copy, until dismissed.",
      "zh-CN": "另一个标签页先发送了回答：此标签页未发送的回答保持可读并可复制，直到关闭提示。",
    },
    requests: [request("demo-answered-elsewhere", [packageManager, projectName])],
    reply: "accept",
    retired: "answered-elsewhere",
    initialDraft: seed(1, false, [
      ["pkg", { selected: ["Yarn"], custom: "", skipped: false }],
      ["name", { selected: [], custom: "parley-web", skipped: false }],
    ]),
  },
  {
    id: "host-restarted",
    group: "faults",
    rules: ["mux-replay"],
    title: { en: "Interrupted by a restart", "zh-CN": "因重启而中断" },
    description: {
      en: "The host restarted while the batch was half answered: the agent stopped waiting, the answers stay readable.",
      "zh-CN": "批次答到一半时主机重启：助手已停止等待，回答仍可阅读。",
    },
    requests: [request("demo-host-restarted", [packageManager, browsers])],
    reply: "accept",
    retired: "host-restarted",
    initialDraft: seed(1, false, [
      ["pkg", { selected: ["pnpm"], custom: "", skipped: false }],
      ["browsers", { selected: ["Firefox", "WebKit"], custom: "", skipped: false }],
    ]),
  },
  {
    id: "approval-note",
    group: "plans",
    rules: ["tool-outcome"],
    title: { en: "Approval with a note", "zh-CN": "附备注的批准" },
    description: {
      en: "A plan review with a note typed: Approve sends the approval and the note, Keep planning sends the note as feedback.",
      "zh-CN": "已填写备注的计划审阅：“批准”会发送批准和备注，“继续规划”会把备注作为反馈发送。",
    },
    requests: [request("demo-approval-note", planReviewQuestions("1. Add the `retired` slot entry\n2. Ship behind a flag\n3. Remove the flag next week"))],
    reply: "accept",
    initialDraft: seed(0, false, [["plan-note", { selected: [], custom: "Ship after the Friday freeze.", skipped: false }]]),
  },
  {
    id: "retired-dismissed",
    group: "faults",
    rules: ["respond-claim"],
    title: { en: "Dismissed in another tab", "zh-CN": "已在另一个标签页中放弃" },
    description: {
      en: "Another tab dismissed the batch: this tab's unsent answers stay readable, with Copy, until dismissed.",
      "zh-CN": "另一个标签页放弃了该批次：此标签页未发送的回答保持可读并可复制，直到关闭提示。",
    },
    requests: [request("demo-retired-dismissed", [packageManager, projectName])],
    reply: "accept",
    retired: "dismissed-elsewhere",
    initialDraft: seed(1, false, [["pkg", { selected: ["npm"], custom: "", skipped: false }]]),
  },
  {
    id: "retired-stopped",
    group: "faults",
    rules: ["respond-claim"],
    title: { en: "Stopped while answering", "zh-CN": "回答时被停止" },
    description: {
      en: "The turn was stopped (Stop, or the chat deleted) while the batch was half answered: the agent stopped waiting.",
      "zh-CN": "批次答到一半时回合被停止（停止按钮或删除对话）：助手已停止等待。",
    },
    requests: [request("demo-retired-stopped", [packageManager, browsers])],
    reply: "accept",
    retired: "stopped",
    initialDraft: seed(1, false, [["pkg", { selected: ["pnpm"], custom: "", skipped: false }]]),
  },
  {
    id: "retired-away",
    group: "faults",
    rules: ["mux-replay"],
    title: { en: "Resolved while offline", "zh-CN": "离线时已结束" },
    description: {
      en: "The connection dropped and the request was settled meanwhile: the replay after reconnecting no longer holds it.",
      "zh-CN": "连接断开期间请求已结束：重新连接后的重放中不再包含它。",
    },
    requests: [request("demo-retired-away", [packageManager, projectName])],
    reply: "accept",
    retired: "resolved-away",
    initialDraft: seed(1, false, [
      ["pkg", { selected: ["Yarn"], custom: "", skipped: false }],
      ["name", typed("parley-next")],
    ]),
  },
  {
    id: "network-error",
    group: "faults",
    rules: ["respond-claim"],
    title: { en: "Network error on send", "zh-CN": "发送时网络错误" },
    description: {
      en: "The answer never reached the host: the panel says so and keeps the answers for another try.",
      "zh-CN": "回答未能到达主机：面板给出提示，并保留回答以便重试。",
    },
    requests: [request("demo-network-error", [packageManager, projectName])],
    reply: "network-error",
    initialDraft: seed(1, false, [
      ["pkg", { selected: ["pnpm"], custom: "", skipped: false }],
      ["name", typed("Parley")],
    ]),
    then: "submit",
  },
  {
    id: "form-text",
    group: "forms",
    rules: ["elicitation-mapping", "answer-input"],
    title: { en: "Form: text with length bounds", "zh-CN": "表单：有长度限制的文本" },
    description: {
      en: "A server's string property with minLength and maxLength; the server's message leads the question.",
      "zh-CN": "服务器的字符串属性，带 minLength 和 maxLength；服务器的消息显示在问题前面。",
    },
    requests: [oneField("demo-form-text", "username", { type: "string", title: "Username", description: "3 to 20 characters.", minLength: 3, maxLength: 20 })],
    reply: "accept",
  },
  {
    id: "form-email",
    group: "forms",
    rules: ["elicitation-mapping", "answer-input"],
    title: { en: "Form: email, required", "zh-CN": "表单：必填的电子邮件" },
    description: { en: "A required email field: Skip is disabled.", "zh-CN": "必填的电子邮件字段：“跳过”不可用。" },
    requests: [oneField("demo-form-email", "email", { type: "string", format: "email", title: "Work email" }, true)],
    reply: "accept",
  },
  {
    id: "form-url",
    group: "forms",
    rules: ["elicitation-mapping", "answer-input"],
    title: { en: "Form: URL with a default", "zh-CN": "表单：带默认值的 URL" },
    description: { en: "A uri property whose default shows pre-filled and marked as such.", "zh-CN": "uri 属性，默认值已预先填入并加以标注。" },
    requests: [oneField("demo-form-url", "homepage", { type: "string", format: "uri", title: "Homepage", default: "https://example.com" })],
    reply: "accept",
  },
  {
    id: "form-date",
    group: "forms",
    rules: ["elicitation-mapping", "answer-input"],
    title: { en: "Form: date", "zh-CN": "表单：日期" },
    description: { en: "A date property (YYYY-MM-DD).", "zh-CN": "日期属性（YYYY-MM-DD）。" },
    requests: [oneField("demo-form-date", "start", { type: "string", format: "date", title: "Start date" }, true)],
    reply: "accept",
  },
  {
    id: "form-date-time",
    group: "forms",
    rules: ["elicitation-mapping", "elicitation-content"],
    title: { en: "Form: date and time", "zh-CN": "表单：日期和时间" },
    description: { en: "A date-time property; a time zone is required by the server.", "zh-CN": "日期时间属性；服务器要求带时区。" },
    requests: [oneField("demo-form-date-time", "meeting", { type: "string", format: "date-time", title: "Meeting time", default: "2026-02-03T10:00:00Z" })],
    reply: "accept",
  },
  {
    id: "form-number",
    group: "forms",
    rules: ["elicitation-mapping", "answer-input"],
    title: { en: "Form: number with bounds", "zh-CN": "表单：有范围的数字" },
    description: { en: "A number between 0.5 and 10, with a default.", "zh-CN": "0.5 到 10 之间的数字，带默认值。" },
    requests: [oneField("demo-form-number", "budget", { type: "number", title: "Monthly budget (k€)", minimum: 0.5, maximum: 10, default: 2.5 })],
    reply: "accept",
  },
  {
    id: "form-integer",
    group: "forms",
    rules: ["elicitation-mapping", "answer-input"],
    title: { en: "Form: whole number, out of range", "zh-CN": "表单：超出范围的整数" },
    description: {
      en: "An integer from 1 to 12 with 20 typed: the field names its problem and Submit waits.",
      "zh-CN": "1 到 12 的整数，已输入 20：字段指出问题，提交不可用。",
    },
    requests: [oneField("demo-form-integer", "seats", { type: "integer", title: "Seats", minimum: 1, maximum: 12 }, true)],
    reply: "accept",
    initialDraft: seed(0, false, [["seats", typed("20")]]),
  },
  {
    id: "form-problem",
    group: "forms",
    rules: ["answer-input", "question-required"],
    title: { en: "Form: a value of the wrong kind", "zh-CN": "表单：类型不符的值" },
    description: { en: "An email field holding text that is not an email address: the problem shows under the field.", "zh-CN": "电子邮件字段中填了非邮件地址的文字：问题显示在字段下方。" },
    requests: [oneField("demo-form-problem", "email", { type: "string", format: "email", title: "Work email" }, true)],
    reply: "accept",
    initialDraft: seed(0, false, [["email", typed("ada at example")]]),
  },
  {
    id: "form-yes-no",
    group: "forms",
    rules: ["elicitation-mapping"],
    title: { en: "Form: yes or no", "zh-CN": "表单：是或否" },
    description: { en: "A boolean property: Yes and No, shown translated, sent as Yes and No.", "zh-CN": "布尔属性：显示为翻译后的“是”和“否”，发送的仍是 Yes 和 No。" },
    requests: [oneField("demo-form-yes-no", "newsletter", { type: "boolean", title: "Send me the monthly newsletter", default: false })],
    reply: "accept",
  },
  {
    id: "form-choice",
    group: "forms",
    rules: ["elicitation-mapping", "question-defaults"],
    title: { en: "Form: one of several, with a default", "zh-CN": "表单：单选，带默认值" },
    description: { en: "A string enum with titles (oneOf): the default is chosen and marked.", "zh-CN": "带标题的字符串枚举（oneOf）：默认项已选中并加以标注。" },
    requests: [
      oneField("demo-form-choice", "plan", {
        type: "string",
        title: "Plan",
        oneOf: [
          { const: "free", title: "Free" },
          { const: "team", title: "Team" },
          { const: "enterprise", title: "Enterprise" },
        ],
        default: "team",
      }),
    ],
    reply: "accept",
  },
  {
    id: "form-multi-bounds",
    group: "forms",
    rules: ["elicitation-mapping", "answer-rules"],
    title: { en: "Form: pick 2 to 3", "zh-CN": "表单：选择 2 到 3 项" },
    description: { en: "An array of an enum with minItems 2 and maxItems 3.", "zh-CN": "带 minItems 2 和 maxItems 3 的枚举数组。" },
    requests: [
      oneField(
        "demo-form-multi-bounds",
        "regions",
        { type: "array", title: "Regions to deploy to", items: { type: "string", enum: ["eu-west", "eu-north", "us-east", "us-west", "ap-south"] }, minItems: 2, maxItems: 3 },
        true,
      ),
    ],
    reply: "accept",
  },
  {
    id: "form-signup",
    group: "forms",
    rules: ["elicitation-mapping", "question-required", "question-defaults"],
    title: { en: "Form: a whole signup form", "zh-CN": "表单：完整的注册表单" },
    description: {
      en: "Every kind in one form, in schema order: required fields, defaults, bounds; the review step lists them.",
      "zh-CN": "一个表单包含所有类型，按架构顺序：必填字段、默认值、范围；检查步骤会逐项列出。",
    },
    requests: [
      formRequest("demo-form-signup", "signup", "Create your workspace.", {
        type: "object",
        properties: {
          name: { type: "string", title: "Workspace name", minLength: 2, maxLength: 40 },
          email: { type: "string", format: "email", title: "Admin email" },
          site: { type: "string", format: "uri", title: "Website" },
          launch: { type: "string", format: "date", title: "Launch date" },
          size: { type: "integer", title: "Team size", minimum: 1, maximum: 500, default: 5 },
          public: { type: "boolean", title: "Make the workspace public", default: false },
          tier: { type: "string", enum: ["free", "team"], enumNames: ["Free", "Team"], title: "Plan" },
        },
        required: ["name", "email", "size"],
      }),
    ],
    reply: "accept",
  },
  {
    id: "approval",
    group: "approvals",
    rules: ["approval-request", "mcp-approval"],
    title: { en: "Tool approval", "zh-CN": "工具调用审批" },
    description: {
      en: "An MCP server's tool wants to run: its full arguments, an optional reason, Allow once, Allow for this chat, Deny.",
      "zh-CN": "MCP 服务器的工具请求运行：完整参数、可选理由，以及“允许一次”“在本对话中允许”“拒绝”。",
    },
    requests: [approvalRequest("demo-approval", { server: "github", tool: "create_issue", arguments: JSON.stringify({ repo: "parley/parley", title: "Demo: stories for every slot state", labels: ["design"] }) })],
    reply: "accept",
  },
  {
    id: "approval-reason",
    group: "approvals",
    rules: ["approval-request", "mcp-approval"],
    title: { en: "Tool approval with a reason", "zh-CN": "附理由的工具审批" },
    description: {
      en: "A reason typed: Deny sends it to the model with TOOL_DENIED; an Allow ignores it.",
      "zh-CN": "已填写理由：“拒绝”会把理由随 TOOL_DENIED 发给模型；允许时忽略理由。",
    },
    requests: [approvalRequest("demo-approval-reason", { server: "github", tool: "merge_pull_request", arguments: JSON.stringify({ repo: "parley/parley", number: 412, method: "squash" }) })],
    reply: "accept",
    reason: "Wait for the second review first.",
  },
  {
    id: "approval-destructive",
    group: "approvals",
    rules: ["approval-request", "mcp-approval"],
    title: { en: "Destructive tool call", "zh-CN": "破坏性的工具调用" },
    description: {
      en: "A call that deletes: long arguments wrap, and a hidden character in a path shows as a marker.",
      "zh-CN": "会删除数据的调用：长参数自动换行，路径中的隐藏字符显示为标记。",
    },
    requests: [
      approvalRequest("demo-approval-destructive", {
        server: "filesystem",
        tool: "delete_directory",
        arguments: JSON.stringify({ path: "/home/ada/projects/parley/data\u200b/sessions", recursive: true, force: true, reason: "Free space before the nightly import: every session older than ninety days goes, with its media." }),
      }),
    ],
    reply: "accept",
  },
  {
    id: "approval-no-arguments",
    group: "approvals",
    rules: ["approval-request"],
    title: { en: "Tool approval without arguments", "zh-CN": "无参数的工具审批" },
    description: { en: "A call that takes no arguments says so instead of showing {}.", "zh-CN": "不带参数的调用会直接说明，而不显示 {}。" },
    requests: [approvalRequest("demo-approval-no-arguments", { server: "deploy", tool: "restart_staging", arguments: "{}" })],
    reply: "accept",
  },
  {
    id: "approval-then-question",
    group: "approvals",
    rules: ["approval-request", "mux-replay"],
    title: { en: "Approval, then a question", "zh-CN": "先审批，再提问" },
    description: {
      en: "A queue mixing an approval and a question: the oldest shows first, the question follows once the approval is answered.",
      "zh-CN": "审批与问题混合排队：最早的先显示，审批处理后接着显示问题。",
    },
    requests: [
      approvalRequest("demo-mixed-queue-approval", { server: "github", tool: "create_issue", arguments: JSON.stringify({ repo: "parley/parley", title: "Flaky test" }) }),
      request("demo-mixed-queue-question", [packageManager]),
    ],
    reply: "accept",
  },
  {
    id: "agent-outside",
    group: "agents",
    rules: ["mux-downlink"],
    title: { en: "Asked by an outside agent", "zh-CN": "由外部助手提问" },
    description: {
      en: "An agent connected through /mcp asks: the header names it (Asked by …).",
      "zh-CN": "通过 /mcp 连接的助手提问：标题中会写明提问者。",
    },
    requests: [request("demo-agent-outside", [packageManager, projectName], { kind: "mcp-client", name: "Claude Code" })],
    reply: "accept",
  },
  {
    id: "agent-mcp-server",
    group: "agents",
    rules: ["elicitation-mapping", "mux-downlink"],
    title: { en: "Asked by an MCP server", "zh-CN": "由 MCP 服务器提问" },
    description: {
      en: "A tool's MCP server asks in the middle of a call: the header says Asked by the … server.",
      "zh-CN": "工具的 MCP 服务器在调用过程中提问：标题写明由哪个服务器提问。",
    },
    requests: [
      formRequest("demo-agent-mcp-server", "deploy", "The staging database has 3 pending migrations.", {
        type: "object",
        properties: { migrate: { type: "boolean", title: "Run them before deploying?" } },
        required: ["migrate"],
      }),
    ],
    reply: "accept",
  },
  {
    id: "agent-acp",
    group: "agents",
    rules: ["mux-downlink"],
    title: { en: "Asked by an ACP agent", "zh-CN": "由 ACP 助手提问" },
    description: {
      en: "An agent the host runs over ACP asks: the header shows the title it is configured with.",
      "zh-CN": "主机通过 ACP 运行的助手提问：标题显示为其配置的名称。",
    },
    requests: [request("demo-agent-acp", [recommendedDatabase], { kind: "acp-agent", name: "qwen", title: "Qwen Code" })],
    reply: "accept",
  },
  {
    id: "playground",
    group: "questions",
    rules: ["answer-rules"],
    title: { en: "Playground", "zh-CN": "试验场" },
    description: {
      en: "Paste ask_user_question arguments as JSON: every validation error with its path, or the panel. The address carries the JSON to share.",
      "zh-CN": "粘贴 JSON 格式的 ask_user_question 参数：显示每个校验错误及其路径，或直接显示面板。地址中带有该 JSON，便于分享。",
    },
    requests: [request("demo-playground", [packageManager])],
    reply: "accept",
    playground: true,
  },
];

/** The story id a location hash names; null when it cannot be decoded (`#%`). */
export function decodeHash(hash: string): string | null {
  try {
    return decodeURIComponent(hash.replace(/^#/, ""));
  } catch {
    return null;
  }
}

/** The story with this id; null for an id no story has. */
export function storyById(id: string | null): Story | null {
  return STORIES.find((story) => story.id === id) ?? null;
}

/** The story a hash like `#plan-review` names, else the first; a hash that cannot be decoded names none. */
export function storyFromHash(hash: string): Story {
  return storyById(decodeHash(hash)) ?? STORIES[0]!;
}
