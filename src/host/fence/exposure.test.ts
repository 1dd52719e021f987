import { describe, expect, it } from "vitest";
import { exposure, isLoopbackHost, loginBanner } from "./exposure";

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

  it("prints the link and a QR code of it", () => {
    const banner = loginBanner("http://192.168.1.20:8787/?token=abc");
    expect(banner).toContain("  http://192.168.1.20:8787/?token=abc\n");
    expect(banner).toMatch(/[▀▄█]/);
    expect(banner).toContain("Set PARLEY_TOKEN (at least 16 characters)");
  });
});
