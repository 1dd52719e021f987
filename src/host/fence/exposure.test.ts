import { describe, expect, it } from "vitest";
import { exposure, isLoopbackHost, loginBanner, publicUrlOf } from "./exposure";

describe("exposure", () => {
  it("knows loopback listen addresses", () => {
    expect(["127.0.0.1", "127.3.2.1", "localhost", "::1", "[::1]"].map(isLoopbackHost)).toEqual([true, true, true, true, true]);
    expect(["0.0.0.0", "::", "192.168.1.20", "10.0.0.5", "parley.lan", "127.0.0.1.evil"].map(isLoopbackHost)).toEqual([false, false, false, false, false, false]);
  });

  it("leaves a loopback host as configured", () => {
    const open = exposure("127.0.0.1", undefined);
    expect({ token: open.token, generated: open.generated, allowedHosts: open.allowedHosts }).toEqual({ token: undefined, generated: false, allowedHosts: [] });
  });

  it("generates a strong token for a host beyond loopback and links to the address it listens on", () => {
    const exposed = exposure("192.168.1.20", undefined);
    expect(exposed.generated).toBe(true);
    expect(exposed.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(exposed.allowedHosts).toContain("192.168.1.20");
    expect(exposed.loginUrl(8787)).toBe(`http://192.168.1.20:8787/?token=${exposed.token}`);
    expect(exposure("192.168.1.20", undefined).token).not.toBe(exposed.token);
  });

  it("keeps a configured token beyond loopback", () => {
    const exposed = exposure("0.0.0.0", "configured-token-1234");
    expect({ token: exposed.token, generated: exposed.generated }).toEqual({ token: "configured-token-1234", generated: false });
  });

  it("with a public https URL requires a token even on loopback, allows its name as Host, and links there", () => {
    const url = publicUrlOf("https://parley.example.net");
    const proxied = exposure("127.0.0.1", undefined, url);
    expect({ generated: proxied.generated, allowedHosts: proxied.allowedHosts, showLogin: proxied.showLogin }).toEqual({ generated: true, allowedHosts: ["parley.example.net"], showLogin: true });
    expect(proxied.loginUrl(8787)).toBe(`https://parley.example.net/?token=${proxied.token}`);
    const configured = exposure("0.0.0.0", "configured-token-1234", url);
    expect({ token: configured.token, generated: configured.generated, showLogin: configured.showLogin }).toEqual({ token: "configured-token-1234", generated: false, showLogin: true });
    expect(configured.allowedHosts).toContain("parley.example.net");
    expect(exposure("0.0.0.0", "configured-token-1234").showLogin).toBe(false);
    for (const wrong of ["http://parley.example.net", "https://parley.example.net/app", "https://u:p@parley.example.net", "parley.example.net"]) {
      expect(() => publicUrlOf(wrong)).toThrow(`PARLEY_PUBLIC_URL=${wrong} is not an https:// origin`);
    }
  });

  it("prints the https link and its QR code with the next step on the phone, and says why an http link gives no notifications", () => {
    const secure = loginBanner("https://parley.example.net/?token=abc", false);
    expect(secure).toContain("  https://parley.example.net/?token=abc\n");
    expect(secure).toContain("then tap Install and notify me");
    expect(secure).not.toContain("PARLEY_PUBLIC_URL");
    expect(loginBanner("http://192.168.1.20:8787/?token=abc")).toContain("set PARLEY_PUBLIC_URL to the https address that reaches this host");
  });

  it("prints the link and a QR code of it", () => {
    const banner = loginBanner("http://192.168.1.20:8787/?token=abc");
    expect(banner).toContain("  http://192.168.1.20:8787/?token=abc\n");
    expect(banner).toMatch(/[▀▄█]/);
    expect(banner).toContain("Set PARLEY_TOKEN (at least 16 characters)");
  });
});
