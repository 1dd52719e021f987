import { planReviewQuestions } from "../../protocol/plan-review";
import { seed, request } from "./build";
import { planMarkdown } from "./samples";
import type { SlotStory } from "../stories";

/** The plans group's stories, in list order. */
export const PLAN_STORIES: SlotStory[] = [
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
];
