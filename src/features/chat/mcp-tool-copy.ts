import type { Catalog } from "../../i18n/locale";

export type McpToolKey =
  | "mcpServer"
  | "mcpTool"
  | "mcpArguments"
  | "mcpResult"
  | "mcpNoResult"
  | "mcpImage"
  | "mcpError"
  | "approvalAllowedOnce"
  | "approvalAllowedForChat"
  | "approvalDenied"
  | "approvalDeniedReason"
  | "approvalReadOnly"
  | "approvalAutoApproved"
  | "approvalGranted"
  | "approvalAsking";

/** Copy of an MCP call's details in the transcript (loaded with them). */
export const mcpToolCopy: Catalog<McpToolKey> = {
  en: {
    mcpServer: "Server",
    mcpTool: "Tool",
    mcpArguments: "Arguments",
    mcpResult: "Result",
    mcpNoResult: "No result yet.",
    mcpImage: "Image returned by {tool}",
    mcpError: "Error",
    approvalAllowedOnce: "Allowed once by you.",
    approvalAllowedForChat: "Allowed by you for this chat.",
    approvalDenied: "Denied by you.",
    approvalDeniedReason: "Denied by you: {reason}",
    approvalReadOnly: "Read-only: ran without asking.",
    approvalAutoApproved: "Approved in the server's configuration: ran without asking.",
    approvalGranted: "Allowed earlier for this chat: ran without asking.",
    approvalAsking: "Waiting for your approval.",
  },
  "zh-CN": {
    mcpServer: "服务器",
    mcpTool: "工具",
    mcpArguments: "参数",
    mcpResult: "结果",
    mcpNoResult: "尚无结果。",
    mcpImage: "{tool} 返回的图片",
    mcpError: "错误",
    approvalAllowedOnce: "你允许了这一次。",
    approvalAllowedForChat: "你允许在此对话中使用。",
    approvalDenied: "你拒绝了这次调用。",
    approvalDeniedReason: "你拒绝了这次调用：{reason}",
    approvalReadOnly: "只读工具：无需询问即运行。",
    approvalAutoApproved: "服务器配置中已自动批准：无需询问即运行。",
    approvalGranted: "此前已在此对话中允许：无需询问即运行。",
    approvalAsking: "正在等待你的授权。",
  },
};
