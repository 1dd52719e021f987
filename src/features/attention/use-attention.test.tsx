import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LocaleProvider } from "../../i18n/i18n";
import type { PendingRequest } from "../../protocol/schemas";
import { NotifyToggle } from "./notify-toggle";
import { useAttention } from "./use-attention";

const first: PendingRequest = {
  rpcId: "rpc-1",
  sessionId: "session-1",
  createdAt: "2026-01-15T09:30:00.000Z",
  questions: [
    { id: "pkg", question: "Which package manager should the workspace use?", options: [{ label: "pnpm" }] },
    { id: "name", question: "Name?" },
  ],
};
const second: PendingRequest = { ...first, rpcId: "rpc-2", sessionId: "session-2", questions: [{ id: "db", question: "Which database?" }] };

function setVisibility(state: "visible" | "hidden") {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  document.dispatchEvent(new Event("visibilitychange"));
}

function Probe({ requests, onOpenSession }: { requests: PendingRequest[]; onOpenSession: (id: string) => void }) {
  useAttention({ requests, onOpenSession });
  return null;
}

function inLocale(children: ReactNode) {
  return <LocaleProvider initial="en">{children}</LocaleProvider>;
}

interface Shown {
  title: string;
  options: NotificationOptions | undefined;
  instance: { onclick: (() => void) | null; close: () => void };
}

function stubNotifications(permission: NotificationPermission, answer: NotificationPermission = permission) {
  const shown: Shown[] = [];
  class FakeNotification {
    static permission = permission;
    static requestPermission = vi.fn(async () => {
      FakeNotification.permission = answer;
      return answer;
    });
    onclick: (() => void) | null = null;
    close = vi.fn();
    constructor(title: string, options?: NotificationOptions) {
      shown.push({ title, options, instance: this });
    }
  }
  vi.stubGlobal("Notification", FakeNotification);
  return { shown, FakeNotification };
}

beforeEach(() => {
  document.title = "Parley";
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
});

afterEach(() => {
  setVisibility("visible");
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("useAttention", () => {
  it("adds (1) to the title for a question arriving in a hidden tab and clears it when the tab is seen", () => {
    const view = render(inLocale(<Probe requests={[]} onOpenSession={() => undefined} />));
    act(() => setVisibility("hidden"));
    view.rerender(inLocale(<Probe requests={[first]} onOpenSession={() => undefined} />));
    expect(document.title).toBe("(1) Parley");
    view.rerender(inLocale(<Probe requests={[first, second]} onOpenSession={() => undefined} />));
    expect(document.title).toBe("(2) Parley");
    act(() => setVisibility("visible"));
    expect(document.title).toBe("Parley");
  });

  it("does not count a question that arrives while the tab is visible", () => {
    const view = render(inLocale(<Probe requests={[]} onOpenSession={() => undefined} />));
    view.rerender(inLocale(<Probe requests={[first]} onOpenSession={() => undefined} />));
    expect(document.title).toBe("Parley");
  });

  it("stops counting a question that was resolved while the tab stayed hidden", () => {
    const view = render(inLocale(<Probe requests={[]} onOpenSession={() => undefined} />));
    act(() => setVisibility("hidden"));
    view.rerender(inLocale(<Probe requests={[first, second]} onOpenSession={() => undefined} />));
    view.rerender(inLocale(<Probe requests={[second]} onOpenSession={() => undefined} />));
    expect(document.title).toBe("(1) Parley");
  });

  it("keeps the count in front of a title the app changes meanwhile", async () => {
    const view = render(inLocale(<Probe requests={[]} onOpenSession={() => undefined} />));
    act(() => setVisibility("hidden"));
    view.rerender(inLocale(<Probe requests={[first]} onOpenSession={() => undefined} />));
    document.title = "Release plan · Parley";
    await vi.waitFor(() => expect(document.title).toBe("(1) Release plan · Parley"));
  });

  it("shows one notification with the question text and no actions when opted in, and opens the session on click", () => {
    vi.useFakeTimers();
    const { shown } = stubNotifications("granted");
    localStorage.setItem("parley.notify", "on");
    const focus = vi.spyOn(window, "focus").mockImplementation(() => undefined);
    const onOpenSession = vi.fn();
    const view = render(inLocale(<Probe requests={[]} onOpenSession={onOpenSession} />));
    act(() => setVisibility("hidden"));
    view.rerender(inLocale(<Probe requests={[first]} onOpenSession={onOpenSession} />));
    act(() => vi.advanceTimersByTime(1000));
    expect(shown.map(({ title, options }) => ({ title, options }))).toEqual([
      {
        title: "A question is waiting for you",
        options: { body: "Which package manager should the workspace use?\n+1 more", tag: "rpc-1", icon: "/favicon.svg" },
      },
    ]);
    shown[0]!.instance.onclick!();
    expect(focus).toHaveBeenCalled();
    expect(onOpenSession).toHaveBeenCalledWith("session-1");
    expect(shown[0]!.instance.close).toHaveBeenCalled();
  });

  it("shows the notification through the active service worker under the request's tag, and none when one is shown under it already", async () => {
    const { shown } = stubNotifications("granted");
    localStorage.setItem("parley.notify", "on");
    const byWorker: { title: string; options: NotificationOptions }[] = [];
    const tags: string[] = [];
    const registration = {
      active: {},
      getNotifications: vi.fn(async ({ tag }: { tag: string }) => (tags.includes(tag) ? [{ tag }] : [])),
      showNotification: vi.fn(async (title: string, options: NotificationOptions) => void byWorker.push({ title, options })),
    };
    vi.stubGlobal("navigator", Object.assign(Object.create(navigator) as Navigator, { serviceWorker: { getRegistration: async () => registration } }));
    const view = render(inLocale(<Probe requests={[]} onOpenSession={() => undefined} />));
    act(() => setVisibility("hidden"));
    view.rerender(inLocale(<Probe requests={[first]} onOpenSession={() => undefined} />));
    await vi.waitFor(() => expect(byWorker).toHaveLength(1));
    expect(byWorker).toEqual([
      {
        title: "A question is waiting for you",
        options: { body: "Which package manager should the workspace use?\n+1 more", tag: "rpc-1", icon: "/favicon.svg", data: { rpcId: "rpc-1", sessionId: "session-1", actions: [] } },
      },
    ]);
    // A push showed the second request first.
    tags.push("rpc-2");
    view.rerender(inLocale(<Probe requests={[first, second]} onOpenSession={() => undefined} />));
    await vi.waitFor(() => expect(registration.getNotifications).toHaveBeenCalledWith({ tag: "rpc-2" }));
    await act(async () => undefined);
    expect(byWorker).toHaveLength(1);
    expect(shown).toEqual([]);
  });

  it("closes the notification of a request once it is over, whether the tab or a push showed it", async () => {
    stubNotifications("granted");
    localStorage.setItem("parley.notify", "on");
    const shownByTag = new Map<string, { tag: string; close: () => void }>();
    const closed: string[] = [];
    const registration = {
      active: {},
      getNotifications: vi.fn(async ({ tag }: { tag: string }) => [...shownByTag.values()].filter((shown) => shown.tag === tag)),
      showNotification: vi.fn(async (_title: string, options: NotificationOptions) => {
        const tag = options.tag!;
        shownByTag.set(tag, { tag, close: () => void (closed.push(tag), shownByTag.delete(tag)) });
      }),
    };
    vi.stubGlobal("navigator", Object.assign(Object.create(navigator) as Navigator, { serviceWorker: { getRegistration: async () => registration } }));
    const view = render(inLocale(<Probe requests={[]} onOpenSession={() => undefined} />));
    act(() => setVisibility("hidden"));
    // The second request's notification is a push's, shown before the tab looked.
    shownByTag.set("rpc-2", { tag: "rpc-2", close: () => void (closed.push("rpc-2"), shownByTag.delete("rpc-2")) });
    view.rerender(inLocale(<Probe requests={[first, second]} onOpenSession={() => undefined} />));
    await vi.waitFor(() => expect(registration.getNotifications).toHaveBeenCalledWith({ tag: "rpc-2" }));
    await vi.waitFor(() => expect(registration.showNotification).toHaveBeenCalledTimes(1));
    view.rerender(inLocale(<Probe requests={[second]} onOpenSession={() => undefined} />));
    await vi.waitFor(() => expect(closed).toEqual(["rpc-1"]));
    view.rerender(inLocale(<Probe requests={[]} onOpenSession={() => undefined} />));
    await vi.waitFor(() => expect(closed).toEqual(["rpc-1", "rpc-2"]));
    expect(shownByTag.size).toBe(0);
  });

  it("never shows the notification of a request that was over before the worker's registration was read", async () => {
    stubNotifications("granted");
    localStorage.setItem("parley.notify", "on");
    let readRegistration = () => undefined as void;
    const registration = { active: {}, getNotifications: vi.fn(async () => []), showNotification: vi.fn(async () => undefined) };
    const read = new Promise<typeof registration>((resolve) => (readRegistration = () => resolve(registration)));
    const getRegistration = vi.fn(() => read);
    vi.stubGlobal("navigator", Object.assign(Object.create(navigator) as Navigator, { serviceWorker: { getRegistration } }));
    const view = render(inLocale(<Probe requests={[]} onOpenSession={() => undefined} />));
    act(() => setVisibility("hidden"));
    view.rerender(inLocale(<Probe requests={[first]} onOpenSession={() => undefined} />));
    await vi.waitFor(() => expect(getRegistration).toHaveBeenCalledTimes(1));
    view.rerender(inLocale(<Probe requests={[]} onOpenSession={() => undefined} />));
    await act(async () => readRegistration());
    await vi.waitFor(() => expect(registration.getNotifications).toHaveBeenCalledWith({ tag: "rpc-1" }));
    expect(registration.showNotification).not.toHaveBeenCalled();
  });

  it("closes the page's own notification once its request is over", () => {
    vi.useFakeTimers();
    const { shown } = stubNotifications("granted");
    localStorage.setItem("parley.notify", "on");
    const view = render(inLocale(<Probe requests={[]} onOpenSession={() => undefined} />));
    act(() => setVisibility("hidden"));
    view.rerender(inLocale(<Probe requests={[second]} onOpenSession={() => undefined} />));
    act(() => vi.advanceTimersByTime(1000));
    expect(shown.map(({ options }) => options?.tag)).toEqual(["rpc-2"]);
    expect(shown[0]!.instance.close).not.toHaveBeenCalled();
    view.rerender(inLocale(<Probe requests={[]} onOpenSession={() => undefined} />));
    expect(shown[0]!.instance.close).toHaveBeenCalledTimes(1);
  });

  it("shows the notification from the page where reading the service worker throws (Firefox, for a site it keeps no data for)", async () => {
    const { shown } = stubNotifications("granted");
    localStorage.setItem("parley.notify", "on");
    const refusing = Object.create(navigator) as Navigator;
    Object.defineProperty(refusing, "serviceWorker", {
      get() {
        throw new DOMException("The operation is insecure.", "SecurityError");
      },
    });
    vi.stubGlobal("navigator", refusing);
    const view = render(inLocale(<Probe requests={[]} onOpenSession={() => undefined} />));
    act(() => setVisibility("hidden"));
    view.rerender(inLocale(<Probe requests={[second]} onOpenSession={() => undefined} />));
    await vi.waitFor(() => expect(shown.map(({ title, options }) => ({ title, options }))).toEqual([{ title: "A question is waiting for you", options: { body: "Which database?", tag: "rpc-2", icon: "/favicon.svg" } }]));
  });

  it("shows a question's hidden characters as markers in its notification, which the system draws as they are", () => {
    vi.useFakeTimers();
    const { shown } = stubNotifications("granted");
    localStorage.setItem("parley.notify", "on");
    const view = render(inLocale(<Probe requests={[]} onOpenSession={() => undefined} />));
    act(() => setVisibility("hidden"));
    const spoofing: PendingRequest = { ...first, questions: [{ id: "keep", question: "Keep report\u202Etxt.exe?" }] };
    view.rerender(inLocale(<Probe requests={[spoofing]} onOpenSession={() => undefined} />));
    act(() => vi.advanceTimersByTime(1000));
    expect(shown.map(({ options }) => options?.body)).toEqual(["Keep report⟨U+202E⟩txt.exe?"]);
  });

  it("hides the question in its notification on a device whose pushes hide it, as a push would", () => {
    vi.useFakeTimers();
    const { shown } = stubNotifications("granted");
    localStorage.setItem("parley.notify", "on");
    localStorage.setItem("parley.push.hide-text", "1");
    const view = render(inLocale(<Probe requests={[]} onOpenSession={() => undefined} />));
    act(() => setVisibility("hidden"));
    view.rerender(inLocale(<Probe requests={[first]} onOpenSession={() => undefined} />));
    act(() => vi.advanceTimersByTime(1000));
    expect(shown.map(({ title, options }) => ({ title, options }))).toEqual([{ title: "Parley", options: { body: "Parley has a question for you", tag: "rpc-1", icon: "/favicon.svg" } }]);
    localStorage.removeItem("parley.push.hide-text");
  });

  it("shows no notification without the opt-in", () => {
    vi.useFakeTimers();
    const { shown } = stubNotifications("granted");
    const view = render(inLocale(<Probe requests={[]} onOpenSession={() => undefined} />));
    act(() => setVisibility("hidden"));
    view.rerender(inLocale(<Probe requests={[first]} onOpenSession={() => undefined} />));
    act(() => vi.advanceTimersByTime(1000));
    expect(shown).toEqual([]);
  });
});

describe("NotifyToggle", () => {
  it("asks for permission and remembers the opt-in when granted", async () => {
    const { FakeNotification } = stubNotifications("default", "granted");
    const user = userEvent.setup();
    render(inLocale(<NotifyToggle />));
    await user.click(screen.getByRole("checkbox", { name: "Notify me" }));
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("checkbox", { name: "Notify me" })).toBeChecked();
    expect(localStorage.getItem("parley.notify")).toBe("on");
  });

  it("explains a denied permission and stays off", async () => {
    stubNotifications("default", "denied");
    const user = userEvent.setup();
    render(inLocale(<NotifyToggle />));
    await user.click(screen.getByRole("checkbox", { name: "Notify me" }));
    expect(screen.getByRole("checkbox", { name: "Notify me" })).not.toBeChecked();
    expect(screen.getByText("Notifications are blocked for this site in the browser's settings.")).toBeInTheDocument();
    expect(localStorage.getItem("parley.notify")).toBeNull();
  });
});
