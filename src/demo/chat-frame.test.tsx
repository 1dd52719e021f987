import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { LocaleProvider } from "../i18n/i18n";
import { CHAT_STORIES } from "./stories/chat";
import { StoryFrame } from "./story-frame";
import { readText } from "../testing/read-text";

function openFrame(address: string, locale: "en" | "zh-CN" = "en") {
  window.history.replaceState(null, "", address);
  return render(
    <LocaleProvider initial={locale} setsDocumentLanguage={false}>
      <StoryFrame />
    </LocaleProvider>,
  );
}

afterEach(() => {
  window.history.replaceState(null, "", "/");
});

const chats = () => screen.getByRole("navigation", { name: "Chats" });
const commands = async () => within(await screen.findByRole("listbox", { name: "Commands" })).getAllByRole("option").map((option) => option.textContent);

/** Each test renders the whole app screen; on a busy machine that alone can outlast the default 5 s. */
const BUSY = { timeout: 30_000 };

describe("a chat story in the preview frame", BUSY, () => {
  it("renders every chat story by its deep link: the chat list and the conversation, never the unknown-story notice", async () => {
    for (const story of CHAT_STORIES) {
      const { unmount } = openFrame(`/demo?frame#${story.id}`);
      expect(await screen.findByRole("navigation", { name: "Chats" }), story.id).toBeInTheDocument();
      expect(screen.getByRole("main"), story.id).toBeInTheDocument();
      expect(screen.queryByText(/There is no story/), story.id).toBeNull();
      expect(document.title, story.id).toBe(story.title.en);
      unmount();
    }
  });

  it("shows the demo model's first screen with its starters, /tool of the ready server among them, and the link to /demo", async () => {
    openFrame("/demo?frame#first-screen-demo");
    const starters = await screen.findByRole("list", { name: "Try the demo model" });
    await waitFor(() => expect(within(starters).getAllByRole("button").map((button) => button.textContent)).toEqual(["/ask a sample batch", "/plan a sample plan", "/tool of the notes server"]));
    expect(screen.getByRole("link", { name: "See every question and card state at /demo" })).toHaveAttribute("href", "/demo");
    expect(within(chats()).getByText("No chats yet.", { exact: false })).toBeInTheDocument();
  });

  it("shows a real model's first screen as one line on what Parley does", async () => {
    openFrame("/demo?frame#first-screen-real");
    expect(await screen.findByText(/^Parley's assistant stops to ask you when it needs a decision/)).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Try the demo model" })).toBeNull();
  });

  it("opens the / menu on the composer's text: every demo command, only the ones typed so far, or an ACP agent's own", async () => {
    const first = openFrame("/demo?frame#command-menu");
    await waitFor(async () => expect(await commands()).toHaveLength(4));
    expect((await commands()).map((text) => text?.split(" ")[0])).toEqual(["/ask", "/plan", "/tool", "/echo"]);
    expect(screen.getByText("↑ ↓ to choose · Enter or Tab to complete · Esc to close")).toBeInTheDocument();
    first.unmount();

    const filtered = openFrame("/demo?frame#command-menu-filtered");
    await waitFor(async () => expect((await commands()).map((text) => text?.split(" ")[0])).toEqual(["/plan"]));
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveValue("/p");
    filtered.unmount();

    openFrame("/demo?frame#command-menu-agent");
    await waitFor(async () => expect((await commands()).map((text) => text?.split(" ")[0])).toEqual(["/init", "/compress", "/review"]));
  });

  it("lists the chats under Waiting for you, Today, Yesterday and Earlier, with the open chat's transcript beside them", async () => {
    openFrame("/demo?frame#sidebar-groups");
    await waitFor(() => expect([...chats().querySelectorAll("[data-group]")].map((group) => group.getAttribute("data-group"))).toEqual(["waiting", "today", "yesterday", "earlier"]));
    const waiting = within(chats()).getByRole("list", { name: "Waiting for you" });
    // Both were asked as the story opened: which of them is newer depends on the millisecond each was asked in.
    await waitFor(() => expect(within(waiting).getAllByRole("link").map(readText).sort()).toEqual(["Move sessions to PostgreSQL Plan awaiting review", "Release checklist for 2.4 Waiting for answer"]));
    expect(await screen.findByText(/^Done\. The settings page now has/)).toBeInTheDocument();
  });

  it("opens the … menu of the open chat's row by itself, with Rename and Delete", async () => {
    openFrame("/demo?frame#sidebar-row-menu");
    const menu = await screen.findByRole("menu", { name: "Actions for “Dark mode for the settings page”" });
    expect(within(menu).getAllByRole("menuitem").map((item) => item.textContent)).toEqual(["Rename", "Delete"]);
  });

  it("opens the chat list as a drawer with its backdrop and Close, and Close shuts it", async () => {
    const user = userEvent.setup();
    const { container } = openFrame("/demo?frame#phone-drawer");
    const close = await screen.findByRole("button", { name: "Close the chat list" });
    await waitFor(() => expect(container.querySelector(".shell")).toHaveAttribute("data-drawer", "open"));
    expect(container.querySelector(".shell__scrim")).not.toBeNull();
    await user.click(close);
    expect(container.querySelector(".shell")).toHaveAttribute("data-drawer", "closed");
    expect(container.querySelector(".shell__scrim")).toBeNull();
  });

  it("shows an ACP agent's rows: the diff of an edit, coloured terminal output, the plan, a folded thought, and its mode in the header", async () => {
    const diff = openFrame("/demo?frame#acp-tool-diff");
    expect(await screen.findByRole("region", { name: "Changes to /srv/code/parley/src/client/upload.ts" })).toBeInTheDocument();
    expect(await screen.findByRole("combobox", { name: "Mode" })).toHaveValue("default");
    diff.unmount();

    const terminal = openFrame("/demo?frame#acp-terminal");
    await waitFor(() => expect(screen.getByRole("region", { name: "Output" }).querySelector(".ansi-red-fg")).not.toBeNull());
    const output = screen.getByRole("region", { name: "Output" });
    expect(output.textContent).toContain("× retries the upload once the socket is back");
    expect(output.textContent).not.toContain("\u001b");
    terminal.unmount();

    const plan = openFrame("/demo?frame#acp-plan");
    const steps = within(await screen.findByRole("region", { name: "Plan" })).getAllByRole("listitem");
    expect(steps.map((step) => step.getAttribute("data-status"))).toEqual(["completed", "in_progress", "pending", "pending"]);
    // The plan's heading sits one level under the chat's; the running agent is named by its title, not its config name.
    expect(screen.getByRole("heading", { level: 2, name: "Plan" })).toBeInTheDocument();
    expect(screen.getByText("Qwen Code is working…")).toBeInTheDocument();
    expect(screen.getByText("You can send when Qwen Code has finished, or press Stop.")).toBeInTheDocument();
    plan.unmount();

    openFrame("/demo?frame#acp-thought");
    expect((await screen.findByText("Thinking")).closest("details")?.open).toBe(false);
  });

  it("opens a chat picked in the list in place, leaving the frame's address on the story", async () => {
    const user = userEvent.setup();
    openFrame("/demo?frame#sidebar-groups");
    await user.click(await within(chats()).findByRole("link", { name: /Retry uploads after a dropped socket/ }));
    expect(await screen.findByRole("heading", { level: 1, name: "Retry uploads after a dropped socket" })).toBeInTheDocument();
    expect(window.location.hash).toBe("#sidebar-groups");
  });

  it("speaks Chinese around the same content", async () => {
    openFrame("/demo?frame&locale=zh-CN#sidebar-groups", "zh-CN");
    expect(await screen.findByRole("navigation", { name: "对话" })).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "今天" })).toBeInTheDocument();
  });
});
