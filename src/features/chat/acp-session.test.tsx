import { afterEach, describe, expect, it, vi } from "vitest";
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { LocaleProvider } from "../../i18n/i18n";
import type { AcpRowData, Message } from "../../protocol/schemas";
import { SessionStoreProvider } from "../../store/react";
import { createSessionStore } from "../../store/session-store";
import AcpModeSelect from "./acp-mode-select";
import { acpCommands, latestAcpSession, selectAcpSession, type AcpSessionData } from "./acp-session";
import { Conversation } from "./conversation";
import { DEMO_MODEL } from "./host-facts";

const READY: AcpSessionData = {
  type: "session",
  agent: "qwen",
  title: "Qwen Code",
  cwd: "/w",
  state: "ready",
  mode: "default",
  modes: [
    { id: "default", name: "Default", description: "Ask before edits" },
    { id: "auto", name: "Auto", description: "Act without asking" },
    { id: "plan", name: "Plan" },
  ],
  commands: [
    { name: "init", description: "Write an AGENTS.md" },
    { name: "review", description: "Review the changes", hint: "what to review" },
  ],
};

const row = (id: string, data: AcpRowData): Message => ({ id, sessionId: "s1", role: "tool", createdAt: "2026-01-01T00:00:00.000Z", tool: { callId: id, name: `acp/${data.type}`, args: {}, status: "ok", acp: data } });
const text = (id: string): Message => ({ id, sessionId: "s1", role: "user", createdAt: "2026-01-01T00:00:00.000Z", text: "hi" }) as Message;

function mockFetch(status = 202, body: unknown = { ok: true }) {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("an ACP chat's session in the header and the / menu", () => {
  it("reads the newest session row of the transcript, and none for a chat no agent runs", () => {
    const first: AcpSessionData = { ...READY, state: "failed", error: "exit 3" };
    expect(latestAcpSession([row("r1", first), text("m1"), row("r2", READY), text("m2")])).toBe(READY);
    expect(latestAcpSession([text("m1")])).toBeNull();
    const store = createSessionStore();
    store.getState().applyFrame({ type: "message/upserted", message: row("r1", READY) });
    expect(selectAcpSession("s1")(store.getState())).toEqual(READY);
    expect(selectAcpSession("s2")(store.getState())).toBeNull();
  });

  it("turns the agent's commands into the menu's, with the hint as usage", () => {
    expect(acpCommands(READY)).toEqual([
      { name: "/init", usage: "", description: "Write an AGENTS.md" },
      { name: "/review", usage: "<what to review>", description: "Review the changes" },
    ]);
    expect(acpCommands(READY)).toBe(acpCommands(READY));
    expect(acpCommands(null)).toEqual([]);
  });

  it("shows the current mode and switches to an asking mode at once", async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch();
    render(<AcpModeSelect sessionId="s1" data={READY} />);
    const select = screen.getByRole("combobox", { name: "Mode" });
    expect(select).toHaveValue("default");
    await user.selectOptions(select, "plan");
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(fetchMock).toHaveBeenCalledWith("/api/sessions/s1/mode", expect.objectContaining({ method: "POST", body: JSON.stringify({ mode: "plan" }) }));
  });

  it("asks in the page before a mode that never asks, keeping the mode first, and sends nothing when kept", async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch();
    const confirm = vi.spyOn(window, "confirm");
    render(<AcpModeSelect sessionId="s1" data={READY} />);
    const select = screen.getByRole("combobox", { name: "Mode" });
    await user.selectOptions(select, "auto");
    const ask = screen.getByRole("alertdialog", { name: "In mode Auto, Qwen Code acts without asking you first. Switch?" });
    expect(within(ask).getAllByRole("button").map((button) => button.textContent)).toEqual(["Keep Default", "Switch to Auto"]);
    expect(within(ask).getByRole("button", { name: "Keep Default" })).toHaveFocus();
    expect(select).toHaveValue("default");
    await user.click(within(ask).getByRole("button", { name: "Keep Default" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(select).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
    await user.selectOptions(select, "auto");
    await user.click(screen.getByRole("button", { name: "Switch to Auto" }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith("/api/sessions/s1/mode", expect.objectContaining({ body: JSON.stringify({ mode: "auto" }) })));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(select).toHaveFocus();
    expect(confirm).not.toHaveBeenCalled();
  });

  it("asks before each agent's mode that never asks, named as the agent names it (Gemini CLI's autoEdit and yolo too)", async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch();
    const modes = ["auto", "yolo", "bypassPermissions", "auto-edit", "acceptEdits", "autoEdit"].map((id) => ({ id, name: `Mode ${id}` }));
    render(<AcpModeSelect sessionId="s1" data={{ ...READY, modes: [{ id: "default", name: "Default" }, ...modes] }} />);
    const select = screen.getByRole("combobox", { name: "Mode" });
    for (const { id } of modes) {
      await user.selectOptions(select, id);
      const ask = screen.getByRole("alertdialog", { name: `In mode Mode ${id}, Qwen Code acts without asking you first. Switch?` });
      await user.click(within(ask).getByRole("button", { name: "Keep Default" }));
    }
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("gives the select the focus back at once after Switch, and leaves it where the user puts it next", async () => {
    const user = userEvent.setup();
    let answer = () => undefined as void;
    const sent = new Promise<Response>((resolve) => (answer = () => resolve(new Response("{}", { status: 202 }))));
    vi.stubGlobal("fetch", vi.fn(() => sent));
    render(
      <>
        <AcpModeSelect sessionId="s1" data={READY} />
        <textarea aria-label="Message" />
      </>,
    );
    const select = screen.getByRole("combobox", { name: "Mode" });
    await user.selectOptions(select, "auto");
    await user.click(screen.getByRole("button", { name: "Switch to Auto" }));
    // The select has the focus back at once, and takes no other choice while the switch is sent.
    expect(select).toHaveFocus();
    expect(select).toHaveAttribute("aria-busy", "true");
    await user.selectOptions(select, "plan");
    await user.click(screen.getByRole("textbox", { name: "Message" }));
    await act(async () => answer());
    await waitFor(() => expect(select).toHaveAttribute("aria-busy", "false"));
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveFocus();
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("says why a mode could not be set, in Chinese too", async () => {
    const user = userEvent.setup();
    mockFetch(409, { error: { code: "AGENT_SESSION", message: "no agent runs this chat" } });
    render(
      <LocaleProvider initial="zh-CN">
        <AcpModeSelect sessionId="s1" data={READY} />
      </LocaleProvider>,
    );
    await user.selectOptions(screen.getByRole("combobox", { name: "模式" }), "plan");
    expect(await screen.findByRole("alert")).toHaveTextContent("无法切换模式：no agent runs this chat");
  });

  it("is disabled while the agent starts and absent when it offers no modes", () => {
    const { rerender, container } = render(<AcpModeSelect sessionId="s1" data={{ ...READY, state: "starting" }} />);
    expect(screen.getByRole("combobox", { name: "Mode" })).toBeDisabled();
    rerender(<AcpModeSelect sessionId="s1" data={{ ...READY, modes: undefined }} />);
    expect(container).toBeEmptyDOMElement();
  });

  it("sits in the conversation's header and offers the agent's commands, not the demo model's, in the composer's / menu", async () => {
    const user = userEvent.setup();
    const store = createSessionStore();
    store.getState().loadSessions([{ id: "s1", title: "Agent chat", createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z", state: "idle", agent: { kind: "acp-agent", name: "qwen", cwd: "/w" } }]);
    store.getState().applyFrame({ type: "message/upserted", message: row("r1", READY) });
    const data = selectAcpSession("s1")(store.getState())!;
    render(
      <SessionStoreProvider store={store}>
        <Conversation sessionId="s1" slotEntries={[]} drafts={new Map()} onSend={async () => undefined} onStop={async () => undefined} fallbackTitle="New chat" facts={{ model: DEMO_MODEL, servers: [] }} commands={acpCommands(data)} headerEnd={<AcpModeSelect sessionId="s1" data={data} />} />
      </SessionStoreProvider>,
    );
    expect(within(screen.getByRole("banner")).getByRole("combobox", { name: "Mode" })).toHaveValue("default");
    await user.type(screen.getByRole("textbox", { name: "Message" }), "/");
    expect(within(screen.getByRole("listbox", { name: "Commands" })).getAllByRole("option").map((option) => option.textContent)).toEqual(["/init Write an AGENTS.md", "/review <what to review>Review the changes"]);
  });
});
