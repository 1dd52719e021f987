import { seed, typed, request } from "./build";
import { packageManager, browsers, projectName } from "./samples";
import type { SlotStory } from "../stories";

/** The faults group's stories, in list order. */
export const FAULT_STORIES: SlotStory[] = [
  {
    id: "rejected-receipt",
    settled: [{ role: "status", text: "question response rejected: not-pending" }],
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
    id: "answered-elsewhere",
    settled: [{ role: "region", name: "Answered in another tab" }],
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
    settled: [{ role: "region", name: "Host lost: it restarted, and Parley's assistant no longer waits for these answers" }],
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
    id: "retired-dismissed",
    settled: [{ role: "region", name: "Dismissed in another tab" }],
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
    settled: [{ role: "region", name: "Parley's assistant stopped waiting" }],
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
    id: "retired-host-lost",
    settled: [{ role: "region", name: "Host lost: the host that held it stopped, and Parley's assistant no longer waits for these answers" }],
    group: "faults",
    rules: ["cluster-adopt"],
    title: { en: "Its host died (cluster)", "zh-CN": "其主机已停止（集群）" },
    description: {
      en: "In a cluster, the host that held the batch died while it was half answered, and another host took its work over: the agent no longer waits.",
      "zh-CN": "在集群中，批次答到一半时持有它的主机停止了，另一台主机接管了它的工作：助手不再等待。",
    },
    requests: [request("demo-retired-host-lost", [packageManager, browsers])],
    reply: "accept",
    retired: "host-lost",
    initialDraft: seed(1, false, [["pkg", { selected: ["pnpm"], custom: "", skipped: false }]]),
  },
  {
    id: "retired-away",
    settled: [{ role: "region", name: "Answered or stopped while this tab was offline" }],
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
    settled: [{ role: "status", text: "Failed to fetch" }],
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
];
