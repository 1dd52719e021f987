import { describe, expect, it } from "vitest";
import { renderHook, waitFor } from "@testing-library/react";
import type { AgentsApi, AgentsList } from "../client/agents-api";
import { useAgents } from "./use-agents";

const LIST: AgentsList = { agents: [{ name: "qwen", title: "Qwen Code", state: "ready" }], workspaces: ["/srv/code"] };

function api(list: () => Promise<AgentsList>): AgentsApi {
  return { list, createChat: () => Promise.reject(new Error("not in this test")) };
}

describe("useAgents", () => {
  it("settles `known` with the host's first list", async () => {
    const { result } = renderHook(() => useAgents(api(() => Promise.resolve(LIST)), 60_000));
    await expect(result.current.known).resolves.toEqual(LIST);
    await waitFor(() => expect(result.current.agents).toEqual(LIST));
  });

  it("settles `known` with null when the host cannot say, or says nothing for `waitMs`", async () => {
    const failed = renderHook(() => useAgents(api(() => Promise.reject(new Error("offline"))), 60_000));
    await expect(failed.result.current.known).resolves.toBeNull();
    const silent = renderHook(() => useAgents(api(() => new Promise<AgentsList>(() => undefined)), 50));
    await expect(silent.result.current.known).resolves.toBeNull();
    expect(silent.result.current.agents).toBeNull();
  });
});
