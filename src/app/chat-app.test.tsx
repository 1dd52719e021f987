import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ApiError, type Api } from "../client/api";
import type { AgentsApi } from "../client/agents-api";
import type { MuxConnection, MuxOptions } from "../client/mux";
import { LocaleProvider } from "../i18n/i18n";
import type { Session } from "../protocol/schemas";
import { ChatApp } from "./chat-app";

function session(id: string, title: string): Session {
  return { id, title, createdAt: "2026-11-30T10:00:00.000Z", updatedAt: "2026-11-30T10:00:00.000Z", state: "idle" };
}

/** An Api with the given methods; any other call rejects, so an unexpected one shows as a failure. */
function fakeApi(methods: Partial<Api>): Api {
  const unexpected = (name: string) => () => Promise.reject(new Error(`unexpected call of ${name}`));
  return {
    health: methods.health ?? unexpected("health"),
    listSessions: methods.listSessions ?? unexpected("listSessions"),
    createSession: methods.createSession ?? unexpected("createSession"),
    getSession: methods.getSession ?? unexpected("getSession"),
    deleteSession: methods.deleteSession ?? unexpected("deleteSession"),
    renameSession: methods.renameSession ?? unexpected("renameSession"),
    postMessage: methods.postMessage ?? unexpected("postMessage"),
    abort: methods.abort ?? unexpected("abort"),
    respond: methods.respond ?? unexpected("respond"),
  };
}

/** A host with no ACP agents, so New chat starts an assistant chat at once. */
const noAgents: AgentsApi = { list: () => Promise.resolve({ agents: [] }), createChat: () => Promise.reject(new Error("unexpected call of createChat")) };

function renderApp(api: Api, locale: "en" | "zh-CN" = "en", agentsApi?: AgentsApi) {
  const opened: MuxOptions[] = [];
  const connect = (options: MuxOptions): MuxConnection => {
    opened.push(options);
    return { status: "connecting", retryNow: () => undefined, close: () => undefined };
  };
  render(
    <LocaleProvider initial={locale} setsDocumentLanguage={false}>
      <ChatApp api={api} connect={connect} agentsApi={agentsApi} />
    </LocaleProvider>,
  );
  return { hello: () => act(() => opened.at(-1)!.onFrame({ type: "hello", protocol: 2, hostId: "h" })) };
}

afterEach(() => {
  cleanup();
  window.location.hash = "";
});

describe("ChatApp", () => {
  it("says a chat no longer exists when the linked session is gone, and opens the new chat", async () => {
    window.location.hash = "#session=gone";
    renderApp(fakeApi({ getSession: (sessionId) => Promise.reject(new ApiError(404, "NOT_FOUND", `no session ${sessionId}`)) }));
    expect(await screen.findByRole("alert")).toHaveTextContent("That chat no longer exists.");
    expect(window.location.hash).toBe("");
  });

  it("says so in Chinese when the locale is zh-CN", async () => {
    window.location.hash = "#session=gone";
    renderApp(fakeApi({ getSession: (sessionId) => Promise.reject(new ApiError(404, "NOT_FOUND", `no session ${sessionId}`)) }), "zh-CN");
    expect(await screen.findByRole("alert")).toHaveTextContent("该对话已不存在。");
  });

  it("says the chats could not load when the list fetch fails, and clears it once a later load succeeds", async () => {
    let reachable = false;
    const { hello } = renderApp(
      fakeApi({ listSessions: () => (reachable ? Promise.resolve({ sessions: [session("s-1", "Plans")], next: null }) : Promise.reject(new TypeError("Failed to fetch"))) }),
    );
    hello();
    expect(await screen.findByRole("alert")).toHaveTextContent("Could not load the chats. Parley's host cannot be reached; check that it is running.");
    reachable = true;
    hello();
    expect(await screen.findByRole("link", { name: "Plans" })).toBeVisible();
    // The list renders as the store takes it; the problem clears when the load reports, a tick later.
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());
  });

  it("says the host turns requests away, and for how long, when the list load gets 429, never that there are no chats", async () => {
    let refusing = true;
    const { hello } = renderApp(
      fakeApi({
        listSessions: () =>
          refusing ? Promise.reject(new ApiError(429, "RATE_LIMITED", "too many wrong tokens from this address; retry in 17 s", 17)) : Promise.resolve({ sessions: [], next: null }),
      }),
    );
    hello();
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Could not load the chats. The host is turning away requests from this address for now: too many came from it. Try again in 17 s.",
    );
    const nav = screen.getByRole("navigation", { name: "Chats" });
    expect(nav).toHaveTextContent("The chats could not be loaded.");
    expect(nav).not.toHaveTextContent("No chats yet.");
    refusing = false;
    hello();
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());
    expect(nav).toHaveTextContent("No chats yet.");
  });

  it("says so in Chinese, and without a wait when the host gave none", async () => {
    const { hello } = renderApp(fakeApi({ listSessions: () => Promise.reject(new ApiError(429, "RATE_LIMITED", "too many requests")) }), "zh-CN");
    hello();
    expect(await screen.findByRole("alert")).toHaveTextContent("无法加载对话。来自此地址的请求过多，主机暂时拒绝处理。请稍后再试。");
    expect(screen.getByRole("navigation", { name: "对话" })).toHaveTextContent("无法加载对话列表。");
    expect(screen.getByRole("navigation", { name: "对话" })).not.toHaveTextContent("还没有对话。");
  });

  it("opens the new chat within New chat's own click, so text typed right after it is the new chat's, not the old one's", async () => {
    window.location.hash = "#session=s-1";
    const { hello } = renderApp(
      fakeApi({
        listSessions: () => Promise.resolve({ sessions: [session("s-1", "Plans")], next: null }),
        getSession: () =>
          Promise.resolve({
            session: session("s-1", "Plans"),
            messages: [{ id: "m-1", sessionId: "s-1", role: "user", createdAt: "2026-11-30T10:00:00.000Z", text: "Make a plan" }],
          }),
      }),
      "en",
      noAgents,
    );
    hello();
    expect(await screen.findByText("Make a plan")).toBeVisible();
    expect(screen.queryByText("Start a conversation")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "New chat" }));
    // The browser tells the page of the new hash in a later task; nothing may wait for it.
    expect(screen.getByText("Start a conversation")).toBeVisible();
    fireEvent.change(screen.getByRole("textbox", { name: "Message" }), { target: { value: "/plan 1. Write the tests" } });
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(window.location.hash).toBe("");
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveValue("/plan 1. Write the tests");
    expect(screen.getByRole("button", { name: "Send" })).toBeEnabled();
  });

  it("says a delete failed and shows the chat again when the host refuses it", async () => {
    const user = userEvent.setup();
    const { hello } = renderApp(
      fakeApi({
        listSessions: () => Promise.resolve({ sessions: [session("s-1", "Plans")], next: null }),
        deleteSession: () => Promise.reject(new ApiError(507, "STORAGE_FULL", "disk full")),
      }),
    );
    hello();
    await user.click(await screen.findByRole("button", { name: "Actions for “Plans”" }));
    await user.click(screen.getByRole("menuitem", { name: "Delete “Plans”" }));
    expect(screen.getByText("Deleted “Plans”.")).toBeVisible();
    expect(screen.getByRole("button", { name: "Undo" })).toBeVisible();
    expect(screen.queryByRole("link", { name: "Plans" })).toBeNull();
    await act(async () => {
      window.dispatchEvent(new Event("pagehide"));
    });
    expect(await screen.findByRole("alert")).toHaveTextContent("Could not delete the chat; it is back in the list. The host could not save: its disk is full or read-only.");
    expect(screen.getByRole("link", { name: "Plans" })).toBeVisible();
  });
});
