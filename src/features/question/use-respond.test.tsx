import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Receipt, RespondRequest } from "../../protocol/schemas";
import { retireDraft, settleResponse } from "./retired-drafts";
import { useRespond } from "./use-respond";

const cancel: RespondRequest = { type: "cancel", rpcId: "r1", sessionId: "s1" };

afterEach(() => {
  settleResponse("r1", true);
  sessionStorage.clear();
});

describe("useRespond with a step before the send (a plan's Chat about it stops the turn first)", () => {
  it("still sends when the step failed after it ended the request (its answer was lost): the receipt settles the drafts", async () => {
    const respond = vi.fn(async (_body: RespondRequest): Promise<Receipt> => ({ accepted: false, reason: "not-pending", detail: "question r1 is not pending" }));
    const after = vi.fn();
    const { result } = renderHook(() => useRespond(respond));
    await act(() =>
      result.current.send(cancel, {
        goneIsDone: true,
        before: async () => {
          // The stop took effect: the request's resolved frame came before the stop's own answer was lost.
          expect(retireDraft("r1", "stopped")).toBe("after-receipt");
          throw new Error("Failed to fetch");
        },
        after,
      }),
    );
    expect([respond.mock.calls, after.mock.calls.length, result.current.status]).toEqual([[[cancel]], 1, { kind: "sent" }]);
  });

  it("does not send when the step failed and the request is still waiting: the error is shown", async () => {
    const respond = vi.fn(async (_body: RespondRequest): Promise<Receipt> => ({ accepted: true }));
    const { result } = renderHook(() => useRespond(respond));
    await act(() =>
      result.current.send(cancel, {
        before: async () => {
          throw new Error("Failed to fetch");
        },
      }),
    );
    expect([respond.mock.calls, result.current.status, result.current.busy]).toEqual([[], { kind: "error", message: "Failed to fetch" }, null]);
  });
});
