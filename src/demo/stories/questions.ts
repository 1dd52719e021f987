import { seed, typed, request } from "./build";
import { packageManager, recommendedDatabase, browsers, projectName, thirtyRegions } from "./samples";
import type { SlotStory } from "../stories";

/** The questions group's stories, in list order. */
export const QUESTION_STORIES: SlotStory[] = [
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
    description: {
      en: "Past nine options the list scrolls inside the panel and says so: 1–9 choose the first nine, the arrows, Home and End reach the rest.",
      "zh-CN": "超过九个选项时，列表在面板内滚动并加以说明：1–9 选择前九项，方向键、Home 和 End 可到达其余选项。",
    },
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
    id: "submitting",
    settled: [{ role: "button", name: "Submitting…" }],
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
    settled: [{ role: "button", name: "Answer" }],
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
    settled: [{ text: "Discard your answers?", exact: true }],
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
    settled: [{ role: "status", text: "Parley's assistant asks 2 questions. Press Alt+Q to answer." }],
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
      en: "The compact stepper: question 1 answered (✓), 2 marked skipped, 3 current, 4 not yet, then Review; each item is a button you can jump to.",
      "zh-CN": "紧凑的步骤条：第 1 题已回答（✓），第 2 题标为已跳过，第 3 题为当前题，第 4 题尚未回答，最后是检查；每一项都是可跳转的按钮。",
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
    settled: [{ role: "heading", name: "Review your answers" }],
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
    id: "playground",
    settled: [{ role: "region", name: "Which package manager?" }],
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
