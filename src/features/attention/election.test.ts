import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createElectionState, decide, forget, receive, type Claim, type ElectionMessage, type ElectionState } from "./election";

function hearAll(messages: readonly ElectionMessage[]): ElectionState {
  return messages.reduce(receive, createElectionState());
}

function claim(tabId: string, visible = false, rpcId = "rpc-1"): ElectionMessage {
  return { type: "claim", claim: { rpcId, tabId, visible } };
}

describe("notification election", () => {
  it("picks exactly one of three hidden tabs, the same one in every tab", () => {
    const messages = [claim("tab-b"), claim("tab-c"), claim("tab-a")];
    const decisions = ["tab-a", "tab-b", "tab-c"].map((tabId) => decide(hearAll(messages), "rpc-1", tabId));
    expect(decisions).toEqual(["notify", "stay-quiet", "stay-quiet"]);
  });

  it("lets a lone hidden tab notify", () => {
    expect(decide(hearAll([claim("tab-z")]), "rpc-1", "tab-z")).toBe("notify");
  });

  it("picks nobody when one tab was visible, since the user already sees the question", () => {
    const state = hearAll([claim("tab-a"), claim("tab-b", true)]);
    expect([decide(state, "rpc-1", "tab-a"), decide(state, "rpc-1", "tab-b")]).toEqual(["stay-quiet", "stay-quiet"]);
  });

  it("keeps a late tab quiet once another tab announced its notification", () => {
    const state = hearAll([claim("tab-a"), { type: "notified", rpcId: "rpc-1", tabId: "tab-b" }]);
    expect(decide(state, "rpc-1", "tab-a")).toBe("stay-quiet");
  });

  it("keeps a tab quiet for a request it never claimed", () => {
    expect(decide(hearAll([claim("tab-b")]), "rpc-1", "tab-a")).toBe("stay-quiet");
  });

  it("holds separate elections per request", () => {
    const state = hearAll([claim("tab-a", false, "rpc-1"), claim("tab-b", false, "rpc-2"), claim("tab-c", false, "rpc-2")]);
    expect(decide(state, "rpc-1", "tab-a")).toBe("notify");
    expect(decide(state, "rpc-2", "tab-b")).toBe("notify");
    expect(decide(state, "rpc-2", "tab-c")).toBe("stay-quiet");
  });

  it("counts a repeated claim once and forgets a request that left", () => {
    const state = hearAll([claim("tab-a"), claim("tab-a"), { type: "notified", rpcId: "rpc-1", tabId: "tab-a" }]);
    expect(state.claims["rpc-1"]).toEqual([{ rpcId: "rpc-1", tabId: "tab-a", visible: false }]);
    expect(forget(state, "rpc-1")).toEqual({ claims: {}, notified: new Set() });
  });

  it("elects exactly one tab among hidden tabs, whatever order each hears the claims in", () => {
    const tabs = fc.uniqueArray(fc.uuid(), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(
        tabs.chain((ids) =>
          fc.tuple(
            fc.constant(ids),
            fc.array(fc.shuffledSubarray(ids, { minLength: ids.length, maxLength: ids.length }), {
              minLength: ids.length,
              maxLength: ids.length,
            }),
          ),
        ),
        ([ids, orders]) => {
          const decisions = ids.map((tabId, index) => {
            const heard = orders[index]!.map((id) => claim(id));
            return decide(hearAll(heard), "rpc-1", tabId);
          });
          expect(decisions.filter((decision) => decision === "notify")).toHaveLength(1);
        },
      ),
    );
  });

  it("elects no tab when any claimant was visible", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ tabId: fc.uuid(), visible: fc.boolean() }), { minLength: 1, maxLength: 8, selector: (tab) => tab.tabId }),
        (tabs) => {
          fc.pre(tabs.some((tab) => tab.visible));
          const messages = tabs.map((tab): ElectionMessage => ({ type: "claim", claim: { rpcId: "rpc-1", ...tab } satisfies Claim }));
          const state = hearAll(messages);
          expect(tabs.map((tab) => decide(state, "rpc-1", tab.tabId)).filter((decision) => decision === "notify")).toEqual([]);
        },
      ),
    );
  });

  it("treats request ids named like Object.prototype members as ordinary ids", () => {
    for (const rpcId of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      expect(decide(createElectionState(), rpcId, "tab-a")).toBe("stay-quiet");
      const state = hearAll([claim("tab-b", false, rpcId), claim("tab-a", false, rpcId)]);
      expect([decide(state, rpcId, "tab-a"), decide(state, rpcId, "tab-b")]).toEqual(["notify", "stay-quiet"]);
      expect(forget(createElectionState(), rpcId)).toEqual(createElectionState());
      expect(forget(state, rpcId)).toEqual(createElectionState());
    }
  });
});
