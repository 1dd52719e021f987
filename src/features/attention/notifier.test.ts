import { afterEach, describe, expect, it, vi } from "vitest";
import type { PendingRequest } from "../../protocol/schemas";
import { createNotifier, type Notifier } from "./notifier";

const request: PendingRequest = {
  rpcId: "rpc-1",
  sessionId: "session-1",
  createdAt: "2026-01-15T09:30:00.000Z",
  questions: [{ id: "pkg", question: "Which package manager?" }],
};

const WINDOW_MS = 60;
const open: Notifier[] = [];

function tab(channelName: string, tabId: string, shown: string[]): Notifier {
  const notifier = createNotifier({
    tabId,
    channel: new BroadcastChannel(channelName),
    windowMs: WINDOW_MS,
    show: (shownRequest) => shown.push(`${tabId}:${shownRequest.rpcId}`),
  });
  open.push(notifier);
  return notifier;
}

function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, WINDOW_MS * 3));
}

afterEach(() => {
  open.splice(0).forEach((notifier) => notifier.dispose());
});

describe("createNotifier over a real BroadcastChannel", () => {
  it("shows one notification when three hidden tabs receive the same question", async () => {
    const channelName = `parley-test-${crypto.randomUUID()}`;
    const shown: string[] = [];
    const tabs = ["tab-c", "tab-a", "tab-b"].map((tabId) => tab(channelName, tabId, shown));
    tabs.forEach((notifier) => notifier.offer(request, false));
    await vi.waitFor(() => expect(shown.length).toBeGreaterThan(0));
    await settle();
    expect(shown).toEqual(["tab-a:rpc-1"]);
  });

  it("shows nothing when one of the tabs is visible", async () => {
    const channelName = `parley-test-${crypto.randomUUID()}`;
    const shown: string[] = [];
    tab(channelName, "tab-a", shown).offer(request, false);
    tab(channelName, "tab-b", shown).offer(request, true);
    await settle();
    expect(shown).toEqual([]);
  });

  it("shows nothing for a request withdrawn before the window closed", async () => {
    const shown: string[] = [];
    const notifier = tab(`parley-test-${crypto.randomUUID()}`, "tab-a", shown);
    notifier.offer(request, false);
    notifier.withdraw("rpc-1");
    await settle();
    expect(shown).toEqual([]);
  });

  it("works in a browser without BroadcastChannel as a single tab", async () => {
    const shown: string[] = [];
    const notifier = createNotifier({ tabId: "solo", channel: null, windowMs: WINDOW_MS, show: (r) => shown.push(r.rpcId) });
    open.push(notifier);
    notifier.offer(request, false);
    await vi.waitFor(() => expect(shown).toEqual(["rpc-1"]));
  });
});
