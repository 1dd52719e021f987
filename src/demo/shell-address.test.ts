import { describe, expect, it } from "vitest";
import { readLook, readView, sharedLink, withoutLook, writeView } from "./shell-address";

describe("the workshop's address", () => {
  it("reads the view it names and the default for whatever is missing or unknown", () => {
    expect(readView(new URLSearchParams("width=tablet&compare=widths&reply=slow"))).toEqual({ width: "tablet", compare: "widths", reply: "slow" });
    expect(readView(new URLSearchParams("width=__proto__&compare=&reply=constructor"))).toEqual({ width: "desktop", compare: "off", reply: null });
  });

  it("writes only what differs from the default, in one order whatever the order before", () => {
    const url = new URL("http://127.0.0.1:1/demo?reply=slow&edit=%7B%7D&width=phone#single-select");
    writeView(url, { width: "tablet", compare: "themes", reply: "network-error" });
    expect(url.href).toBe("http://127.0.0.1:1/demo?edit=%7B%7D&width=tablet&compare=themes&reply=network-error#single-select");
    writeView(url, { width: "desktop", compare: "off", reply: null });
    expect(url.href).toBe("http://127.0.0.1:1/demo?edit=%7B%7D#single-select");
  });

  it("shares the theme and language with the link, reads back only known ones, and drops them once applied", () => {
    const link = sharedLink("http://127.0.0.1:1/demo?width=phone#plan", "dark", "zh-CN");
    expect(link).toBe("http://127.0.0.1:1/demo?width=phone&theme=dark&lang=zh-CN#plan");
    expect(readLook(new URL(link).searchParams)).toEqual({ theme: "dark", locale: "zh-CN" });
    expect(readLook(new URLSearchParams("theme=neon&lang=fr"))).toEqual({});
    expect(withoutLook(new URL(link)).href).toBe("http://127.0.0.1:1/demo?width=phone#plan");
  });
});
