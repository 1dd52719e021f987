import { describe, expect, it } from "vitest";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { LocaleProvider } from "../../i18n/i18n";
import { FirstScreen, SAMPLE_ASK, SAMPLE_PLAN } from "./first-screen";
import type { HostFacts } from "./host-facts";

function setup(facts: HostFacts | null, agentName?: string, send: (text: string) => Promise<void> = async () => undefined) {
  const started: string[] = [];
  const filled: string[] = [];
  render(<FirstScreen facts={facts} agentName={agentName} onStart={(text) => (started.push(text), send(text))} onFill={(text) => filled.push(text)} />);
  return { started, filled };
}

describe("an empty chat's first screen", () => {
  it("says it is the demo model and offers /ask, /plan and /demo when no MCP server is ready", () => {
    setup({ model: "scripted", servers: [] });
    expect(screen.getByText("This host runs the demo model: scripted replies, no AI behind them. Type / for its commands, or try one:")).toBeVisible();
    const starters = screen.getByRole("list", { name: "Try the demo model" });
    expect(within(starters).getAllByRole("button").map((button) => button.textContent)).toEqual(["/ask a sample batch", "/plan a sample plan"]);
    expect(screen.getByRole("link", { name: "See every question and card state at /demo" })).toHaveAttribute("href", "/demo");
  });

  it("sends the sample batch and the sample plan as the first message", async () => {
    const user = userEvent.setup();
    const { started } = setup({ model: "scripted", servers: [] });
    await user.click(screen.getByRole("button", { name: "/ask a sample batch" }));
    await user.click(screen.getByRole("button", { name: "/plan a sample plan" }));
    expect(started).toEqual([SAMPLE_ASK, SAMPLE_PLAN]);
    expect(JSON.parse(SAMPLE_ASK.slice("/ask ".length))).toMatchObject({ questions: [{ id: "tour" }, { id: "keys", multi_select: true }] });
  });

  it("sends a starter once however often it is pressed while it goes, and says why one was not sent, to be tried again", async () => {
    const user = userEvent.setup();
    let fail: (error: Error) => void = () => undefined;
    let calls = 0;
    const send = () => (calls++ === 0 ? new Promise<void>((_, reject) => (fail = reject)) : Promise.resolve());
    const started: string[] = [];
    const screenOf = (key: string) => <FirstScreen key={key} facts={{ model: "scripted", servers: [] }} onStart={(text) => (started.push(text), send())} onFill={() => undefined} />;
    const view = render(screenOf("new chat"));
    await user.dblClick(screen.getByRole("button", { name: "/ask a sample batch" }));
    // The new chat becomes its session while the starter is on its way: the screen is made again, and still waits.
    view.rerender(screenOf("its session"));
    const ask = screen.getByRole("button", { name: "/ask a sample batch" });
    await user.click(screen.getByRole("button", { name: "/plan a sample plan" }));
    expect([started.length, ask.getAttribute("aria-disabled")]).toEqual([1, "true"]);
    fail(new TypeError("Failed to fetch"));
    expect(await screen.findByRole("alert")).toHaveTextContent(/^The starter was not sent\. .+/);
    await user.click(ask);
    await waitFor(() => expect([started.length, screen.queryByRole("alert"), ask.getAttribute("aria-disabled")]).toEqual([2, null, "false"]));
  });

  it("offers /tool for each ready MCP server, filled into the composer to finish", async () => {
    const user = userEvent.setup();
    const { filled, started } = setup({ model: "scripted", servers: ["notes"] });
    await user.click(screen.getByRole("button", { name: "/tool of the notes server" }));
    expect(filled).toEqual(["/tool mcp__notes__"]);
    expect(started).toEqual([]);
  });

  it("says in one line what Parley does with a real model, and offers no starters", () => {
    setup({ model: "openai:gpt-5", servers: ["notes"] });
    expect(screen.getByText("Parley's assistant stops to ask you when it needs a decision: a question panel takes this box's place, and you answer with a click or a key.")).toBeVisible();
    expect(screen.queryByRole("list")).not.toBeInTheDocument();
  });

  it("names the outside agent in its chat, never an assistant", () => {
    setup({ model: "scripted", servers: [] }, "Claude Code");
    expect(screen.getByText("Claude Code has asked nothing yet. Its questions appear below, in the panel.")).toBeVisible();
    expect(screen.queryByRole("list")).not.toBeInTheDocument();
  });

  it("tells what to do first in an ACP agent's chat, whose agent acts on a message", () => {
    render(<FirstScreen facts={{ model: "scripted", servers: [] }} agentName="Qwen Code" acp onStart={async () => undefined} onFill={() => undefined} />);
    expect(screen.getByText("Tell Qwen Code what to do: type below and press Enter. Its questions and requests for permission appear in the panel.")).toBeVisible();
  });

  it("speaks Chinese", () => {
    render(
      <LocaleProvider initial="zh-CN" setsDocumentLanguage={false}>
        <FirstScreen facts={{ model: "scripted", servers: ["notes"] }} onStart={async () => undefined} onFill={() => undefined} />
      </LocaleProvider>,
    );
    expect(screen.getByRole("button", { name: "/tool 调用 notes 服务器的工具" })).toBeVisible();
    expect(screen.getByRole("link", { name: "在 /demo 查看每种问题和卡片状态" })).toBeVisible();
  });
});
