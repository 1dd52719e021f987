import { describe, expect, it } from "vitest";
import { render, screen, waitFor } from "@testing-library/react";
import { itKeepsCatalogParity } from "../../i18n/catalog-testing";
import type { AcpRowData, Message } from "../../protocol/schemas";
import { acpCopy } from "./acp-copy";
import { AcpRow } from "./acp-rows";

const message = (data: AcpRowData): Message => ({ id: "r1", sessionId: "s1", role: "tool", createdAt: "2026-01-01T00:00:00.000Z", tool: { callId: "c1", name: `acp/${data.type}`, args: {}, status: "ok", acp: data } });
const show = (data: AcpRowData) => render(<AcpRow message={message(data)} data={data} />);

describe("acp-rows: the rows of an ACP agent", () => {
  describe("acpCopy", () => {
    itKeepsCatalogParity(acpCopy);
  });

  it("shows an edit's diff as removed and added lines under its path", async () => {
    show({ type: "tool", status: "completed", call: { toolCallId: "e1", title: "Edit src/b.ts", kind: "edit", locations: [{ path: "/w/src/b.ts", line: 2 }], content: [{ type: "diff", path: "/w/src/b.ts", oldText: "a\nb = 1\nc\n", newText: "a\nb = 2\nc\n" }] } });
    // The diff's renderer loads with the first diff shown.
    const linesOf = () => [...screen.getByRole("region", { name: "Changes to /w/src/b.ts" }).querySelectorAll("[data-kind]")].map((line) => [line.getAttribute("data-kind"), line.textContent]);
    await waitFor(() => expect(linesOf()).not.toEqual([]));
    expect(linesOf()).toEqual([
      ["hunk", "@@ -1,3 +1,3 @@\n"],
      ["context", " a\n"],
      ["remove", "-b = 1\n"],
      ["add", "+b = 2\n"],
      ["context", " c\n"],
    ]);
    expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual(["/w/src/b.ts:2"]);
  });

  it("shows terminal output's ANSI colours as classes and never as markup", async () => {
    show({ type: "tool", status: "failed", call: { toolCallId: "r1", title: "npm test", kind: "execute", content: [{ type: "text", text: "\u001b[32mok\u001b[0m <img src=x onerror=alert(1)> \u001b[1;31mfail\u001b[0m" }] } });
    // Until the ANSI parser has loaded, the text shows with its escapes removed; then with its colours.
    expect(screen.getByRole("region", { name: "Output" }).textContent).toBe("ok <img src=x onerror=alert(1)> fail");
    await screen.findByText("ok");
    const output = screen.getByRole("region", { name: "Output" });
    expect(output.textContent).toBe("ok <img src=x onerror=alert(1)> fail");
    expect(output.querySelector("img")).toBeNull();
    expect(screen.getByText("ok").className).toBe("ansi-green-fg");
    expect(screen.getByText("fail").className).toBe("ansi-red-fg ansi-bold");
  });

  it("shows a call the turn ended before as stopped and folded, whatever the agent last said of it, and notes when its host stopped", () => {
    const data: AcpRowData = { type: "tool", status: "in_progress", call: { toolCallId: "x1", title: "npm test", kind: "execute" } };
    const row = (extra: Partial<Message>): Message => ({ ...message(data), ...extra, tool: { ...message(data).tool!, status: "stopped" } });
    const { rerender } = render(<AcpRow message={row({})} data={data} />);
    const details = () => screen.getByText("npm test").closest("details")!;
    expect([details().open, details().getAttribute("data-status"), screen.getByText(/^execute · /).textContent]).toEqual([false, "stopped", "execute · stopped"]);
    expect(screen.queryByText(/the host running this call stopped/)).toBeNull();
    rerender(<AcpRow message={row({ interrupted: true })} data={data} />);
    expect(screen.getByText("Interrupted: the host running this call stopped before it finished.").closest("details")).toBe(details());
    rerender(<AcpRow message={{ ...message(data), tool: { ...message(data).tool!, status: "running" } }} data={data} />);
    expect([details().open, screen.getByText(/^execute · /).textContent]).toEqual([true, "execute · in_progress"]);
  });

  it("shows the plan as a list with each step's status, and a thought folded", () => {
    show({ type: "plan", entries: [{ content: "Read", status: "completed" }, { content: "Fix", status: "in_progress" }] });
    expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual(["✓ Read (completed)", "◐ Fix (in progress)"]);
    show({ type: "thought", text: "Hmm" });
    expect(screen.getByText("Thinking").closest("details")?.open).toBe(false);
  });

  it("shows the session starting, then ready, and a restart that lost the agent's memory; its modes are in the chat header, not the row", () => {
    const { rerender } = show({ type: "session", agent: "qwen", title: "Qwen Code", cwd: "/w", state: "starting" });
    expect(screen.getByRole("status").textContent).toBe("Starting Qwen Code in /w…");
    const ready: AcpRowData = { type: "session", agent: "qwen", title: "Qwen Code", cwd: "/w", state: "ready", resumed: "memory-lost", mode: "default", modes: [{ id: "default", name: "Default" }, { id: "yolo", name: "YOLO" }] };
    rerender(<AcpRow message={message(ready)} data={ready} />);
    expect(screen.getByRole("status").textContent).toContain("Qwen Code in /w");
    expect(screen.queryByRole("combobox", { name: "Mode" })).toBeNull();
    expect(screen.getByText("Qwen Code was restarted in a fresh session: its memory of this chat is lost.")).toBeTruthy();
  });

  it("shows a failed session's reason, the agent's own text, with its hidden characters as markers", () => {
    show({ type: "session", agent: "qwen", title: "Qwen Code", cwd: "/w", state: "failed", error: "the agent exited\nbad key in conf\u202Egifnoc.yml" });
    expect(screen.getByRole("status").textContent).toBe("Qwen Code could not start: the agent exited\nbad key in conf⟨U+202E⟩gifnoc.yml");
  });
});
