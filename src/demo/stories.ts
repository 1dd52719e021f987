import { planReviewQuestions } from "../protocol/plan-review";
import type { PendingRequest, QuestionItem } from "../protocol/schemas";
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

/** One state of the question panel a designer can open at `/demo#<id>`. */
export interface Story {
  id: string;
  title: Localized;
  description: Localized;
  /** The pending requests of one session, oldest first; the panel shows the first. */
  requests: PendingRequest[];
  /** The fake host's receipt when the story opens; the reply control can change it. */
  reply: DemoReply;
  /** Drafts seeded for the first request before the panel mounts, as a reload would restore them. */
  initialDraft?: DraftState;
  /** Performed on the first request after it mounts. */
  then?: StoryStep;
  /** `while-typing`: the preview's message box has focus and text when the batch arrives. */
  arrival?: "while-typing";
  /** Shows the notice left when the first request went away for this reason, with the seeded drafts. */
  retired?: RetireReason;
  /** The playground: the first request is built from `ask_user_question` arguments pasted on the page. */
  playground?: true;
}

/** The one session every story's requests belong to. */
export const DEMO_SESSION_ID = "demo-session";
const CREATED_AT = "2026-01-15T09:30:00.000Z";

function seed(index: number, collapsed: boolean, drafts: [string, QuestionDraft][] = []): DraftState {
  return { drafts: new Map(drafts), index, collapsed };
}

function request(rpcId: string, questions: QuestionItem[]): PendingRequest {
  return { rpcId, sessionId: DEMO_SESSION_ID, questions, createdAt: CREATED_AT };
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
    title: { en: "Single-select", "zh-CN": "单选" },
    description: { en: "One question, three options with descriptions.", "zh-CN": "一个问题，三个带说明的选项。" },
    requests: [request("demo-single-select", [packageManager])],
    reply: "accept",
  },
  {
    id: "recommended-option",
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
    title: { en: "Multi-select", "zh-CN": "多选" },
    description: { en: "Checkboxes; choices combine with typed text.", "zh-CN": "复选框；所选项可与输入的文字组合。" },
    requests: [request("demo-multi-select", [browsers])],
    reply: "accept",
  },
  {
    id: "optionless",
    title: { en: "Optionless", "zh-CN": "无选项" },
    description: { en: "No options: a focused text area only.", "zh-CN": "没有选项：只有获得焦点的文本框。" },
    requests: [request("demo-optionless", [projectName])],
    reply: "accept",
  },
  {
    id: "mixed-batch",
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
    title: { en: "30 options", "zh-CN": "30 个选项" },
    description: { en: "A long option list that scrolls inside the panel.", "zh-CN": "在面板内滚动的长选项列表。" },
    requests: [request("demo-thirty-options", [thirtyRegions])],
    reply: "accept",
  },
  {
    id: "cjk-text",
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
    title: { en: "Submitting", "zh-CN": "提交中" },
    description: { en: "A slow host: Submitting… for 3 s, then accepted.", "zh-CN": "较慢的主机：显示“提交中”3 秒后被接受。" },
    requests: [request("demo-submitting", [packageManager])],
    reply: "slow",
    initialDraft: seed(0, false, [["pkg", { selected: ["pnpm"], custom: "", skipped: false }]]),
    then: "submit",
  },
  {
    id: "rejected-receipt",
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
    title: { en: "Two queued requests", "zh-CN": "两个排队的请求" },
    description: { en: "Request 1 of 2; the second follows the first.", "zh-CN": "第 1 个请求，共 2 个；第二个紧随其后。" },
    requests: [request("demo-queued-first", [packageManager]), request("demo-queued-second", [recommendedDatabase])],
    reply: "accept",
  },
  {
    id: "collapsed",
    title: { en: "Collapsed bar", "zh-CN": "折叠栏" },
    description: { en: "Escape folds the panel to a one-line bar.", "zh-CN": "按 Esc 将面板折叠为一行。" },
    requests: [request("demo-collapsed", [packageManager, browsers])],
    reply: "accept",
    initialDraft: seed(0, true),
  },
  {
    id: "dismiss-confirmation",
    title: { en: "Dismiss confirmation", "zh-CN": "放弃确认" },
    description: { en: "Dismissing with drafts asks Discard your answers?", "zh-CN": "有草稿时放弃会先询问是否丢弃答案。" },
    requests: [request("demo-dismiss", [packageManager, projectName])],
    reply: "accept",
    initialDraft: seed(1, false, [["pkg", { selected: ["Yarn"], custom: "", skipped: false }]]),
    then: "dismiss",
  },
  {
    id: "arrives-while-typing",
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
    id: "playground",
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

/** The story a hash like `#plan-review` names, else the first; a hash that cannot be decoded names none. */
export function storyFromHash(hash: string): Story {
  const id = decodeHash(hash);
  return STORIES.find((story) => story.id === id) ?? STORIES[0]!;
}
