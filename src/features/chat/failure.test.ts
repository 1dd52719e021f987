import { describe, expect, it } from "vitest";
import { format } from "../../i18n/locale";
import { classifyFailure, describeFailure } from "./failure";
import { chatCopy, type ChatKey } from "./copy";

const english = (key: ChatKey, values?: Record<string, string | number>) => format(chatCopy.en[key], values);
const chinese = (key: ChatKey, values?: Record<string, string | number>) => format(chatCopy["zh-CN"][key], values);

function apiError(code: string, message = "host text") {
  return Object.assign(new Error(message), { code });
}

describe("classifyFailure", () => {
  it("reads a fetch TypeError as unreachable and host codes by their meaning", () => {
    expect(
      [new TypeError("Failed to fetch"), apiError("TURN_RUNNING"), apiError("RATE_LIMITED"), apiError("NOT_FOUND"), apiError("STORAGE_FULL"), apiError("STORAGE_READONLY"), apiError("INTERNAL"), new Error("x"), "text"].map(
        classifyFailure,
      ),
    ).toEqual(["unreachable", "turn-running", "rate-limited", "missing", "storage", "storage", "other", "other", "other"]);
  });

  it("ignores an inherited code", () => {
    const inherited = Object.create({ code: "TURN_RUNNING" }) as object;
    expect(classifyFailure(inherited)).toBe("other");
  });
});

describe("describeFailure", () => {
  it("never shows the browser's raw network error, in either language", () => {
    expect(describeFailure(new TypeError("Failed to fetch"), english)).toBe("Parley's host cannot be reached; check that it is running.");
    expect(describeFailure(new TypeError("Failed to fetch"), chinese)).toBe("无法连接到 Parley 主机，请确认它正在运行。");
  });

  it("quotes the host's own text only for failures without copy of their own", () => {
    expect(describeFailure(apiError("INTERNAL", "disk on fire"), english)).toBe("The host said: disk on fire");
    expect(describeFailure(apiError("TURN_RUNNING", "busy"), chinese)).toBe("Parley 助手仍在处理上一条消息。");
  });
});
