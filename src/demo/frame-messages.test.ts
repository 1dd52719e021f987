import { describe, expect, it } from "vitest";
import { frameUrl, settingsFromLocation } from "./frame-messages";

describe("preview frame address", () => {
  it("carries the story, language, theme and reply there and back", () => {
    const settings = { storyId: "cjk-text", locale: "zh-CN", theme: "dark", reply: "slow" } as const;
    const url = frameUrl(settings);
    expect(url).toBe("/demo?frame=&locale=zh-CN&theme=dark&reply=slow#cjk-text");
    expect(settingsFromLocation(new URL(url, "http://127.0.0.1"))).toEqual(settings);
  });

  it("carries a phone preview and the playground's arguments there and back", () => {
    const settings = { storyId: "playground", locale: "en", theme: "light", reply: null, phone: true, args: '{"questions":[]}' } as const;
    const url = frameUrl(settings);
    expect(url).toBe("/demo?frame=&locale=en&theme=light&phone=1&args=%7B%22questions%22%3A%5B%5D%7D#playground");
    expect(settingsFromLocation(new URL(url, "http://127.0.0.1"))).toEqual(settings);
  });

  it.each([
    { name: "keeps the story's own reply when the address names none", url: "http://127.0.0.1/demo?frame#plan-review", storyId: "plan-review" },
    { name: "ignores values it does not know", url: "http://127.0.0.1/demo?frame&locale=fr&theme=sepia&reply=maybe#x", storyId: "x" },
  ])("$name", ({ url, storyId }) => {
    expect(settingsFromLocation(new URL(url))).toEqual({ storyId, locale: "en", theme: "system", reply: null });
  });

  it("opens no story for a hash that cannot be decoded", () => {
    expect(settingsFromLocation({ search: "?frame", hash: "#%" })).toEqual({ storyId: "", locale: "en", theme: "system", reply: null });
  });
});
