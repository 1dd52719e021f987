import { describe, expect, it } from "vitest";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ToolCall } from "../../protocol/schemas";
import { LocaleProvider } from "../../i18n/i18n";
import { ToolRow } from "./tool-row";

const args = {
  questions: [
    { id: "pkg", question: "Which package manager?", options: [{ label: "pnpm (Recommended)" }, { label: "npm" }] },
    { id: "name", question: "Project name?" },
    { id: "extras", question: "Extras?", options: [{ label: "ESLint" }, { label: "Prettier" }], multi_select: true },
  ],
};

const ask = (overrides: Partial<ToolCall>): ToolCall => ({ callId: "c1", name: "ask_user_question", args, status: "running", ...overrides });

describe("ToolRow", () => {
  it("reads Ask question, its first question and how many follow, · waiting while pending, with no disclosure", () => {
    render(<ToolRow tool={ask({})} />);
    expect(screen.getByText("Ask question")).toBeInTheDocument();
    expect(screen.getByText("Which package manager?")).toBeInTheDocument();
    expect(screen.getByText("+2 more")).toBeInTheDocument();
    expect(screen.getByText("waiting")).toBeInTheDocument();
    expect(screen.queryByRole("button")).toBeNull();
    expect(screen.queryByText("Project name?")).toBeNull();
  });

  it("tells two pending asks apart by their first question", () => {
    render(
      <>
        <ToolRow tool={ask({ callId: "c1", args: { questions: [{ id: "a", question: "Deploy to staging?" }] } })} />
        <ToolRow tool={ask({ callId: "c2", args: { questions: [{ id: "b", question: "Rotate the keys?" }] } })} />
      </>,
    );
    expect(screen.getByText("Deploy to staging?")).toBeInTheDocument();
    expect(screen.getByText("Rotate the keys?")).toBeInTheDocument();
    expect(screen.queryByText(/more$/)).toBeNull();
  });

  it("reads N/M answered and expands to each question with its answer", async () => {
    const user = userEvent.setup();
    const answers = [
      { id: "pkg", selected: ["pnpm (Recommended)"] },
      { id: "name", selected: [] },
      { id: "extras", selected: ["ESLint"], custom: "Vitest" },
    ];
    render(<ToolRow tool={ask({ status: "ok", result: JSON.stringify({ answers }), outcome: { kind: "answered", answers } })} />);
    const toggle = screen.getByRole("button", { name: /Ask question\s*2\/3 answered/ });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    const terms = screen.getAllByRole("term").map((node) => node.textContent);
    const values = screen.getAllByRole("definition").map((node) => node.textContent);
    expect(terms).toEqual(["Which package manager?", "Project name?", "Extras?"]);
    expect(values).toEqual(["pnpm Recommended", "Skipped", "ESLint, Vitest"]);
    expect(screen.getByText("Recommended")).toHaveClass("tool-row__badge");
    expect(screen.getByText("pnpm").tagName).toBe("BDI");
    await user.click(toggle);
    expect(screen.queryByText("Project name?")).toBeNull();
  });

  it("reads cancelled after the human dismissed the questions", () => {
    render(<ToolRow tool={ask({ status: "error", error: { name: "UserInteractionError", code: "ASK_CANCELLED", message: "the user cancelled ask_user_question" } })} />);
    expect(screen.getByRole("button", { name: /Ask question\s*cancelled/ })).toBeInTheDocument();
  });

  it("reads interrupted after an abort or a host restart", () => {
    const { rerender } = render(<ToolRow tool={ask({ status: "error", error: { name: "UserInteractionError", code: "ASK_ABORTED", message: "aborted" } })} />);
    expect(screen.getByRole("button", { name: /Ask question\s*interrupted/ })).toBeInTheDocument();
    rerender(<ToolRow tool={ask({ status: "stopped" })} />);
    expect(screen.getByRole("button", { name: /Ask question\s*interrupted/ })).toBeInTheDocument();
  });

  it("reads Plan review with approved or changes requested and shows the feedback", async () => {
    const user = userEvent.setup();
    const plan: ToolCall = { callId: "c2", name: "present_plan", args: { plan: "1. Build it" }, status: "ok", result: "Use SQLite", outcome: { kind: "revise", feedback: "Use SQLite" } };
    const { rerender } = render(<ToolRow tool={plan} />);
    await user.click(screen.getByRole("button", { name: /Plan review\s*changes requested/ }));
    expect(screen.getByText("Use SQLite")).toBeInTheDocument();
    rerender(<ToolRow tool={{ ...plan, result: "approved", outcome: { kind: "approved" } }} />);
    expect(screen.getByRole("button", { name: /Plan review\s*approved/ })).toBeInTheDocument();
  });

  it("shows the reason a refused call received instead of listing questions that were never asked", async () => {
    const user = userEvent.setup();
    const message = "invalid arguments: questions.0.header: Too big: expected string to have <=100 characters";
    render(<ToolRow tool={ask({ status: "error", error: { name: "ToolError", code: "INVALID_ARGS", message } })} />);
    await user.click(screen.getByRole("button", { name: /Ask question\s*failed: INVALID_ARGS/ }));
    expect(screen.getByText("Nothing was asked: the call was refused, and the agent received this reason.")).toBeInTheDocument();
    expect(screen.getByText(`INVALID_ARGS: ${message}`)).toBeInTheDocument();
    expect(screen.queryByRole("term")).toBeNull();
    expect(screen.queryByText("No answer")).toBeNull();
  });

  it("shows the reason for arguments that are not a batch at all", async () => {
    const user = userEvent.setup();
    const message = "invalid arguments: questions: Invalid input: expected array, received undefined";
    render(<ToolRow tool={{ callId: "c3", name: "ask_user_question", args: {}, status: "error", error: { name: "ToolError", code: "INVALID_ARGS", message } }} />);
    await user.click(screen.getByRole("button", { name: /Ask question\s*failed: INVALID_ARGS/ }));
    expect(screen.getByText(`INVALID_ARGS: ${message}`)).toBeInTheDocument();
  });

  it("shows the note sent with an approved plan", async () => {
    const user = userEvent.setup();
    const plan: ToolCall = {
      callId: "c4",
      name: "present_plan",
      args: { plan: "1. Build it" },
      status: "ok",
      result: "approved. Note from the human: ship Monday",
      outcome: { kind: "approved", note: "ship Monday" },
    };
    render(<ToolRow tool={plan} />);
    await user.click(screen.getByRole("button", { name: /Plan review\s*approved/ }));
    expect(screen.getByText("Note:")).toBeInTheDocument();
    expect(screen.getByText("ship Monday")).toBeInTheDocument();
  });

  it("notes under a stopped row that the host running the call stopped, only when the row is marked interrupted", () => {
    const stopped = ask({ status: "stopped", error: { name: "UserInteractionError", code: "ASK_ABORTED", message: "aborted" } });
    const { rerender } = render(<ToolRow tool={stopped} interrupted />);
    expect([screen.getByRole("button", { name: /Ask question\s*interrupted/ }).textContent, screen.getByText(/^Interrupted:/).textContent]).toEqual([
      "▸Ask questioninterrupted",
      "Interrupted: the host running this call stopped before it finished.",
    ]);
    rerender(<ToolRow tool={stopped} />);
    expect(screen.queryByText(/^Interrupted:/)).toBeNull();
    rerender(
      <LocaleProvider initial="zh-CN">
        <ToolRow tool={stopped} interrupted />
      </LocaleProvider>,
    );
    expect(screen.getByText(/^已中断：/).textContent).toBe("已中断：运行此调用的主机在调用完成前停止了。");
  });

  it("says a row answered or dismissed before its host stopped was answered, never that the user did not answer", () => {
    const answers = [{ id: "pkg", selected: ["pnpm"] }];
    const answered = ask({ status: "ok", result: '{"answers":[{"id":"pkg","selected":["pnpm"]}]}', outcome: { kind: "answered", answers } });
    const dismissed = ask({ status: "error", error: { name: "UserInteractionError", code: "ASK_CANCELLED", message: "the user cancelled ask_user_question" } });
    const { rerender } = render(<ToolRow tool={answered} interrupted />);
    const notes = () => [...document.querySelectorAll(".tool-row__note")].map((note) => note.textContent);
    expect(notes()).toEqual(["Answered; the host stopped before the agent read it."]);
    rerender(<ToolRow tool={dismissed} interrupted />);
    expect(notes()).toEqual(["Dismissed; the host stopped before the agent read it."]);
    rerender(
      <LocaleProvider initial="zh-CN">
        <ToolRow tool={answered} interrupted />
      </LocaleProvider>,
    );
    expect(notes()).toEqual(["已回答；主机在智能体读取答案之前停止了。"]);
  });

  it("says an MCP call denied or allowed before its host stopped was denied or allowed [tool-interrupted]", () => {
    const mcp = { server: "notes", tool: "write" };
    const row = (tool: Partial<ToolCall>): ToolCall => ({ callId: "c", name: "mcp__notes__write", args: {}, status: "stopped", ...tool });
    const denied = row({ status: "error", mcp: { ...mcp, approval: "denied" }, error: { name: "ToolError", code: "TOOL_DENIED", message: "the human denied this call" } });
    const deniedStopped = row({ mcp: { ...mcp, approval: "denied" }, error: { name: "ToolError", code: "TOOL_DENIED", message: "the human denied this call" } });
    const allowed = row({ mcp: { ...mcp, approval: "allowed-once" }, error: { name: "ToolError", code: "TOOL_INTERRUPTED", message: "stopped" } });
    const { rerender } = render(<ToolRow tool={denied} interrupted />);
    const read = () => [screen.getByRole("button").textContent, ...[...document.querySelectorAll(".tool-row__note")].map((note) => note.textContent)];
    expect(read()).toEqual(["▸notes · writedenied", "Denied; the host stopped before the agent read it."]);
    rerender(<ToolRow tool={deniedStopped} interrupted />);
    expect(read()).toEqual(["▸notes · writedenied", "Denied; the host stopped before the agent read it."]);
    rerender(<ToolRow tool={allowed} interrupted />);
    expect(read()).toEqual(["▸notes · writeinterrupted", "Allowed, but the host running the call stopped before it finished: it may not have run, or not to its end."]);
  });

  it("speaks Chinese in the Chinese locale", () => {
    render(
      <LocaleProvider initial="zh-CN">
        <ToolRow tool={ask({ status: "stopped" })} />
      </LocaleProvider>,
    );
    expect(screen.getByRole("button", { name: /提问\s*已中断/ })).toBeInTheDocument();
  });

  it("isolates every model-written string of an ask row and shows its bidi controls as markers, so they cannot reorder the text around them", async () => {
    const user = userEvent.setup();
    const rlo = "\u202Eevorppa";
    const tool: ToolCall = {
      callId: "c9",
      name: "ask_user_question",
      args: { questions: [{ id: "q", header: `${rlo} head`, question: `${rlo} question?`, options: [{ label: rlo }, { label: "B" }], multi_select: true }] },
      status: "ok",
      result: JSON.stringify({ answers: [{ id: "q", selected: [rlo, "B"], custom: `${rlo} own` }] }),
      outcome: { kind: "answered", answers: [{ id: "q", selected: [rlo, "B"], custom: `${rlo} own` }] },
    };
    render(<ToolRow tool={tool} />);
    await user.click(screen.getByRole("button", { name: /Ask question/ }));
    const isolates = [...document.querySelectorAll(".tool-row__details bdi, .tool-row__details [dir=auto]")].map((node) => [node.tagName, node.textContent]);
    const marked = "⟨U+202E⟩evorppa";
    expect(isolates).toEqual([
      ["SPAN", `${marked} head`],
      ["BDI", `${marked} question?`],
      ["BDI", marked],
      ["BDI", "B"],
      ["BDI", `${marked} own`],
    ]);
  });

  it("isolates the name of a tool the model named", () => {
    render(<ToolRow tool={{ callId: "c", name: "\u202Eloot", args: {}, status: "running" }} />);
    expect(screen.getByText("⟨U+202E⟩loot").tagName).toBe("BDI");
  });

  describe("a call of an MCP server's tool", () => {
    const mcpCall = (overrides: Partial<ToolCall>): ToolCall => ({
      callId: "m1",
      name: "mcp__files__write_file",
      args: { path: "a.txt", text: "hi" },
      status: "running",
      mcp: { server: "files", tool: "write_file", approval: "asking" },
      ...overrides,
    });

    it("reads server · tool, waiting for approval, and shows server, tool and the arguments as collapsible JSON while it runs", async () => {
      const user = userEvent.setup();
      render(<ToolRow tool={mcpCall({})} />);
      const toggle = screen.getByRole("button", { name: /files · write_file\s*waiting for approval/ });
      await user.click(toggle);
      // The details load with their own chunk the first time a row shows them.
      await waitFor(() => expect(screen.getAllByRole("term").map((node) => node.textContent)).toEqual(["Server", "Tool"]));
      expect(screen.getAllByRole("definition").map((node) => node.textContent)).toEqual(["files", "write_file"]);
      expect(screen.getByText("Waiting for your approval.")).toBeInTheDocument();
      const argumentsGroup = screen.getByText("Arguments").closest("details")!;
      expect(argumentsGroup).not.toHaveAttribute("open");
      await user.click(screen.getByText("Arguments"));
      expect(argumentsGroup).toHaveAttribute("open");
      expect(argumentsGroup.querySelector("pre")!.textContent).toBe('{\n  "path": "a.txt",\n  "text": "hi"\n}');
    });

    it("shows text as text, an image through the host's media route and other content as a labelled block, from the outcome data", async () => {
      const user = userEvent.setup();
      const tool = mcpCall({
        status: "ok",
        result: "model-facing text that is never shown",
        mcp: { server: "files", tool: "write_file", approval: "allowed-once" },
        outcome: {
          kind: "mcp-result",
          content: [
            { type: "text", text: "wrote 2 bytes" },
            { type: "image", mediaId: "m/1 x", mimeType: "image/png" },
            { type: "other", label: "Resource file:///a.txt", text: '{"uri":"file:///a.txt"}' },
          ],
        },
      });
      render(<ToolRow tool={tool} />);
      await user.click(screen.getByRole("button", { name: /files · write_file\s*done/ }));
      const result = await screen.findByRole("region", { name: "Result" });
      expect([...result.children].map((node) => node.tagName)).toEqual(["PRE", "IMG", "FIGURE"]);
      expect(result.children[0]!.textContent).toBe("wrote 2 bytes");
      expect(screen.getByRole("img", { name: "Image returned by write_file" })).toHaveAttribute("src", "/api/media/m%2F1%20x");
      expect(screen.getByText("Resource file:///a.txt").closest("figure")!.textContent).toBe('Resource file:///a.txt{"uri":"file:///a.txt"}');
      expect(screen.getByText("Allowed once by you.")).toBeInTheDocument();
      expect(screen.queryByText("model-facing text that is never shown")).toBeNull();
    });

    it("reads denied with the human's reason, and failed with the code of a server error", async () => {
      const user = userEvent.setup();
      const denied = mcpCall({ status: "error", mcp: { server: "files", tool: "write_file", approval: "denied", reason: "not that file" }, error: { name: "ToolError", code: "TOOL_DENIED", message: "the human denied this call: not that file" } });
      const { rerender } = render(<ToolRow tool={denied} />);
      await user.click(screen.getByRole("button", { name: /files · write_file\s*denied/ }));
      expect(screen.getByText("Denied by you: not that file")).toBeInTheDocument();
      expect(screen.getByText("TOOL_DENIED: the human denied this call: not that file")).toBeInTheDocument();
      rerender(<ToolRow tool={mcpCall({ status: "error", mcp: { server: "files", tool: "write_file", approval: "read-only" }, error: { name: "McpError", code: "MCP_TOOL_ERROR", message: "disk full" } })} />);
      expect(screen.getByRole("button", { name: /files · write_file\s*failed: MCP_TOOL_ERROR/ })).toBeInTheDocument();
      expect(screen.getByText("Read-only: ran without asking.")).toBeInTheDocument();
    });

    it("never renders a server's text or a tool name as markup", async () => {
      const user = userEvent.setup();
      render(<ToolRow tool={mcpCall({ status: "ok", mcp: { server: "<b>s</b>", tool: "<i>t</i>" }, outcome: { kind: "mcp-result", content: [{ type: "text", text: "<script>x</script>" }] } })} />);
      await user.click(screen.getByRole("button", { name: /<b>s<\/b> · <i>t<\/i>/ }));
      expect(screen.getByText("<script>x</script>")).toBeInTheDocument();
      expect(document.querySelector(".tool-row b, .tool-row i, .tool-row script")).toBeNull();
    });
  });
});
