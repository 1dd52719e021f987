import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import type { ToolCall } from "../../protocol/schemas";
import { McpToolDetails } from "./mcp-tool-details";

describe("the details of an MCP tool call", () => {
  it("shows hidden characters in the names, the arguments, the result and the error as visible markers", () => {
    const mcp = { server: "no\u200Btes", tool: "write\u202Efdp.exe", approval: "allowed-once" as const };
    const tool: ToolCall = {
      callId: "m1",
      name: "mcp__notes__write",
      args: { text: "report\u202Etxt.exe\u202C" },
      status: "error",
      mcp,
      outcome: { kind: "mcp-result", content: [{ type: "text", text: "saved\u2066 it" }, { type: "other", label: "Resource\u200D", text: "x\uFEFF" }] },
      error: { name: "McpError", code: "MCP_TOOL_ERROR", message: "no\u2060pe" },
    };
    const { container } = render(<McpToolDetails tool={tool} mcp={mcp} />);
    expect(screen.getAllByRole("definition").map((node) => node.textContent)).toEqual(["no⟨U+200B⟩tes", "write⟨U+202E⟩fdp.exe"]);
    expect(container.querySelector(".mcp-tool__json")!.textContent).toBe('{\n  "text": "report⟨U+202E⟩txt.exe⟨U+202C⟩"\n}');
    const result = screen.getByRole("region", { name: "Result" });
    expect(result.textContent).toBe("saved⟨U+2066⟩ itResource⟨U+200D⟩x⟨U+FEFF⟩");
    expect(container.querySelector(".mcp-tool__error pre")!.textContent).toBe("MCP_TOOL_ERROR: no⟨U+2060⟩pe");
  });
});
