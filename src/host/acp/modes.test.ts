import { describe, expect, it } from "vitest";
import { askingMode } from "./modes";

describe("askingMode", () => {
  it("is default when offered, else the start mode unless it never asks, else the first that asks, else none [acp-modes]", () => {
    expect(askingMode(["auto", "default", "plan"], "auto")).toBe("default");
    // Codex: its start mode asks when the reviewer is unsure; full access never asks.
    expect(askingMode(["read-only", "agent", "agent-full-access"], "agent")).toBe("agent");
    expect(askingMode(["agent-full-access", "read-only"], "agent-full-access")).toBe("read-only");
    expect(askingMode(["auto", "plan"], "auto")).toBe("plan");
    expect(askingMode(["auto", "plan"], null)).toBe("plan");
    expect(askingMode(["plan"], "gone")).toBe("plan");
    expect(askingMode(["auto", "yolo", "bypassPermissions"], "auto")).toBeNull();
    expect(askingMode([], null)).toBeNull();
  });
});
