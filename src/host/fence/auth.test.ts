import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { createAuth, MAX_LOGIN_COOKIES, type Auth } from "./auth";
import { checkFence, readCookie } from "./fence";
import { createLogins, LOGIN_ROTATE_MS, LOGIN_ROTATION_GRACE_MS } from "./logins";
import { createRouteLimiter } from "./rate-limit";
import { openStore } from "../store";

const TOKEN = "a-token-of-enough-length";
const COOKIE = "parley_login_8787";

/** Auth on port 8787 whose brake allows three failures per address and, on a clock that stands still, never refills. */
function setup(): Auth {
  const limit = createRouteLimiter({ authFailures: { burst: 3, perSecond: 0.01 } }, () => 0);
  return createAuth({ token: TOKEN, logins: createLogins(openStore(":memory:"), TOKEN), port: 8787, limit });
}

/** A request from `address` with the given headers; the fence reads nothing else. */
function request(headers: Record<string, string> = {}, address = "127.0.0.1"): IncomingMessage {
  return { headers, socket: { remoteAddress: address } } as unknown as IncomingMessage;
}

const statusOf = (verdict: { ok: boolean; status?: number }) => (verdict.ok ? "ok" : verdict.status);

async function spendBudget(auth: Auth, address = "127.0.0.1") {
  const statuses = [];
  for (let attempt = 0; attempt < 4; attempt++) statuses.push(statusOf(await auth.authenticate(request({ authorization: "Bearer guess" }, address))));
  expect(statuses).toEqual([401, 401, 401, 429]);
}

/** The login a right link sets, as the cookie header the browser then sends. */
async function loginCookie(auth: Auth): Promise<string> {
  return (await auth.newLogin()).split(";")[0]!;
}

describe("createAuth [fence-brake]", () => {
  it("checks the credential before the brake: a right token, login or link passes from a braked address, wrong ones get 429 with the wait", async () => {
    const auth = setup();
    const cookie = await loginCookie(auth);
    await spendBudget(auth);
    expect(await auth.authenticate(request({ authorization: `Bearer ${TOKEN}` }))).toEqual({ ok: true });
    expect(await auth.authenticate(request({ cookie }))).toEqual({ ok: true });
    expect(auth.checkLink(request({ "sec-fetch-site": "none", "sec-fetch-mode": "navigate" }), TOKEN)).toEqual({ ok: true });
    expect(await auth.authenticate(request({ cookie: `${COOKIE}=revoked-or-made-up` }))).toEqual({
      ok: false,
      status: 429,
      code: "RATE_LIMITED",
      message: "too many wrong tokens from this address; retry in 100 s",
      retryAfterSeconds: 100,
    });
    expect(statusOf(auth.checkLink(request({ "sec-fetch-site": "none" }), "wrong"))).toBe(429);
    expect(await auth.authenticate(request({ authorization: "Bearer guess" }, "192.168.1.30"))).toMatchObject({ ok: false, status: 401 });
  });

  it("never brakes a request that offers no credential", async () => {
    const auth = setup();
    await spendBudget(auth);
    expect(await auth.authenticate(request())).toMatchObject({ ok: false, status: 401, code: "UNAUTHORIZED" });
  });

  it("does not count wrong login links a page of another site or origin sent, and counts typed, same-origin and programs' ones", async () => {
    const auth = setup();
    const image = { "sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image" };
    const followed = { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" };
    const elsewhere: Record<string, string>[] = [
      image,
      followed,
      { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "iframe" },
      { "sec-fetch-site": "same-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" },
      { "sec-fetch-site": "same-site", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image" },
    ];
    const refused = [];
    for (let round = 0; round < 20; round++) for (const headers of elsewhere) refused.push(statusOf(auth.checkLink(request(headers), `w${round}`)));
    expect(new Set(refused)).toEqual(new Set([401]));
    expect(auth.checkLink(request(image), "w")).toEqual({ ok: false, status: 401, code: "UNAUTHORIZED", message: "the token in the link is not valid" });

    const own: Record<string, string>[] = [{ "sec-fetch-site": "none", "sec-fetch-mode": "navigate" }, { "sec-fetch-site": "same-origin", "sec-fetch-mode": "navigate" }, {}, { "sec-fetch-site": "none" }];
    expect(own.map((headers) => statusOf(auth.checkLink(request(headers), "wrong")))).toEqual([401, 401, 401, 429]);
    expect(statusOf(auth.checkLink(request(followed), TOKEN))).toBe("ok");
  });
});

describe("createAuth: cookies another page added under the login's name [fence-brake]", () => {
  it("lets the owner's live login in past made-up ones sent before it, unbraked, and the rest of the request reads the live one", async () => {
    const auth = setup();
    const live = (await loginCookie(auth)).slice(COOKIE.length + 1);
    await spendBudget(auth);
    const extra = Array.from({ length: MAX_LOGIN_COOKIES + 4 }, (_, index) => `${COOKIE}=made-up-${index}`);
    const carrying = request({ cookie: `theme=dark; ${extra.join("; ")}; ${COOKIE}=${live}` });
    expect(await auth.authenticate(carrying)).toEqual({ ok: true });
    expect([readCookie(carrying, COOKIE), readCookie(carrying, "theme")]).toEqual([live, "dark"]);
    expect(await auth.logout(carrying)).toBe(true);
    expect(await auth.authenticate(request({ cookie: `${COOKIE}=made-up-0; ${COOKIE}=${live}` }))).toMatchObject({ ok: false, status: 429 });
  });

  it("counts a request whose every login is made up once, and skips a value that is not percent-encoding", async () => {
    const auth = setup();
    const live = (await loginCookie(auth)).slice(COOKIE.length + 1);
    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt++) statuses.push(statusOf(await auth.authenticate(request({ cookie: `${COOKIE}=a; ${COOKIE}=b; ${COOKIE}=c` }))));
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(await auth.authenticate(request({ cookie: `${COOKIE}=%E0%A4%A; ${COOKIE}=${live}` }))).toEqual({ ok: true });
  });
});

describe("createAuth: a login rotated by a request", () => {
  it("hands the replacement back, and the rest of the request reads it, so what the request stores or ends is the replacement's", async () => {
    const clock = { now: 0 };
    const logins = createLogins(openStore(":memory:"), TOKEN, () => clock.now);
    const auth = createAuth({ token: TOKEN, logins, port: 8787, limit: createRouteLimiter({}, () => 0) });
    const old = (await auth.newLogin()).split(";")[0]!.slice(COOKIE.length + 1);
    clock.now += LOGIN_ROTATE_MS;
    // A socket's upgrade cannot hand a replacement back: the old login passes as it is, and the next request rotates it.
    const upgrade = request({ cookie: `${COOKIE}=${old}` });
    expect(await auth.authenticate(upgrade, false)).toEqual({ ok: true });
    expect(readCookie(upgrade, COOKIE)).toBe(old);
    const rotating = request({ cookie: `theme=dark; ${COOKIE}=${old}; other=1` });
    const verdict = await auth.authenticate(rotating);
    const replacement = verdict.ok && verdict.setCookie ? verdict.setCookie.split(";")[0]!.slice(COOKIE.length + 1) : null;
    expect(replacement).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect([readCookie(rotating, COOKIE), readCookie(rotating, "theme"), readCookie(rotating, "other")]).toEqual([replacement, "dark", "1"]);
    expect(await auth.logout(rotating)).toBe(true);
    expect(await logins.check(replacement!)).toEqual({ ok: false });
  });
});

describe("checkFence: a login's rotation", () => {
  it("is never set off by a page of another origin on the same site, whose answer the browser may never store; the app's own request rotates it", async () => {
    const clock = { now: 0 };
    const logins = createLogins(openStore(":memory:"), TOKEN, () => clock.now);
    const auth = createAuth({ token: TOKEN, logins, port: 8787, limit: createRouteLimiter({}, () => 0) });
    const fence = { allowedHosts: [], allowedOrigins: [], authenticate: auth.authenticate };
    const old = (await auth.newLogin()).split(";")[0]!.slice(COOKIE.length + 1);
    clock.now += LOGIN_ROTATE_MS;
    // A page on 127.0.0.1:9999 fetching the host without CORS: same-site, no Origin header, the login cookie sent.
    const fromPage = request({ host: "127.0.0.1:8787", "sec-fetch-site": "same-site", cookie: `${COOKIE}=${old}` });
    expect(await checkFence(fromPage, fence)).toEqual({ ok: true });
    clock.now += 2 * LOGIN_ROTATION_GRACE_MS;
    expect(await logins.check(old, false)).toEqual({ ok: true, replacement: null });
    const own = request({ host: "127.0.0.1:8787", "sec-fetch-site": "same-origin", cookie: `${COOKIE}=${old}` });
    const verdict = await checkFence(own, fence);
    expect(verdict.ok && verdict.setCookie?.startsWith(`${COOKIE}=`)).toBe(true);
  });
});
