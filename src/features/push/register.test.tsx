import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, expect, it, vi } from "vitest";
import { registerParley } from "./register";
import { pushSettingsReady } from "./settings-ready";

afterEach(() => {
  document.documentElement.lang = "en";
  document.body.replaceChildren();
});

/** A page Parley's worker already controls, whose registration holds a new version waiting. */
/** A waiting worker: its `state` and `statechange` listeners, as the browser keeps them. */
function waitingWorker() {
  const listeners: (() => void)[] = [];
  return {
    state: "installed",
    postMessage: vi.fn(),
    addEventListener: vi.fn((_type: string, listener: () => void) => void listeners.push(listener)),
    become(state: string) {
      this.state = state;
      for (const listener of listeners) listener();
    },
  };
}

function controlledWithUpdate() {
  const waiting = waitingWorker();
  const registration: { waiting: ReturnType<typeof waitingWorker> | null; installing: null; addEventListener: () => void } = { waiting, installing: null, addEventListener: vi.fn() };
  const worker = { register: vi.fn(async () => registration), controller: {}, addEventListener: vi.fn() };
  Object.defineProperty(navigator, "serviceWorker", { configurable: true, value: worker });
  return { waiting, worker, registration };
}

it("registers the worker, lets the sidebar load the push settings, and offers the waiting version in the page's language", async () => {
  const user = userEvent.setup();
  document.documentElement.lang = "zh-CN";
  const { waiting, worker } = controlledWithUpdate();
  expect(pushSettingsReady()).toBe(false);
  await registerParley();
  expect(worker.register).toHaveBeenCalledWith("/sw.js", { scope: "/" });
  expect(pushSettingsReady()).toBe(true);
  const bar = screen.getByRole("status");
  expect(bar).toHaveTextContent("Parley 有新版本可用。重新加载以更新");
  const reload = within(bar).getByRole("button", { name: "重新加载以更新" });
  await user.click(reload);
  expect(reload).toBeDisabled();
  expect(waiting.postMessage.mock.calls).toEqual([[{ type: "skip-waiting" }]]);
});

it("speaks English where the page's language is one Parley has no copy for", async () => {
  document.documentElement.lang = "fr";
  controlledWithUpdate();
  await registerParley();
  expect(screen.getByRole("status")).toHaveTextContent("A new version of Parley is ready.Reload to update");
});

it("reloads at once when the version it offered is no longer waiting (another window activated it), and activates the newest one waiting", async () => {
  const user = userEvent.setup();
  const { registration, worker } = controlledWithUpdate();
  const reload = vi.fn();
  await registerParley(reload);
  // The worker's question of which chat this window shows is answered from the start.
  expect(worker.addEventListener.mock.calls.map(([type]) => type)).toEqual(["message"]);
  // A newer version replaced the one first offered: the button activates that one.
  const newer = waitingWorker();
  registration.waiting = newer;
  const button = screen.getByRole("button", { name: "Reload to update" });
  await user.click(button);
  expect(newer.postMessage.mock.calls).toEqual([[{ type: "skip-waiting" }]]);
  expect(worker.addEventListener.mock.calls.map(([type]) => type)).toEqual(["message", "controllerchange"]);
  expect(reload).not.toHaveBeenCalled();
  expect(button).toBeDisabled();
  // A still newer version installed before that one took over: the button offers it.
  newer.become("redundant");
  expect(button).toBeEnabled();
  const newest = waitingWorker();
  registration.waiting = newest;
  await user.click(button);
  expect(newest.postMessage.mock.calls).toEqual([[{ type: "skip-waiting" }]]);
  document.body.replaceChildren();

  const again = controlledWithUpdate();
  await registerParley(reload);
  // Another window pressed its button first: nothing waits now, and this page reloads onto the active version.
  again.registration.waiting = null;
  await user.click(screen.getByRole("button", { name: "Reload to update" }));
  expect(reload).toHaveBeenCalledTimes(1);
  expect(again.waiting.postMessage).not.toHaveBeenCalled();
});

it("answers a worker started again which chat this window shows, on the port it sent", async () => {
  const { worker } = controlledWithUpdate();
  await registerParley();
  const listener = worker.addEventListener.mock.calls.find(([type]) => type === "message")![1] as (event: MessageEvent) => void;
  window.location.hash = "#session=chat-7";
  const port = { postMessage: vi.fn() };
  listener({ data: { type: "parley/which-chat" }, ports: [port] } as unknown as MessageEvent);
  listener({ data: { type: "something-else" }, ports: [port] } as unknown as MessageEvent);
  expect(port.postMessage.mock.calls).toEqual([[{ sessionId: "chat-7" }]]);
  window.location.hash = "";
});
