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
function controlledWithUpdate() {
  const waiting = { postMessage: vi.fn() };
  const worker = { register: vi.fn(async () => ({ waiting, installing: null, addEventListener: vi.fn() })), controller: {}, addEventListener: vi.fn() };
  Object.defineProperty(navigator, "serviceWorker", { configurable: true, value: worker });
  return { waiting, worker };
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
