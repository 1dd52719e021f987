import type { IncomingMessage } from "node:http";
import { bearerToken, readCookie, readCookies, fromAnotherOrigin, replaceCookie, tokenMatches, type FenceVerdict } from "./fence";
import { loginCookieName, LOGIN_TTL_MS, type Logins } from "./logins";
import type { RouteLimiter } from "./rate-limit";

/** Shorter tokens are refused at start-up: a token guards every transcript and answer. */
export const MIN_TOKEN_CHARS = 16;

export interface AuthOptions {
  token: string;
  logins: Logins;
  port: number;
  limit: RouteLimiter;
  /** The login cookie's name; by default named for the port (`loginCookieName`). */
  cookieName?: string;
  /** Marks the login cookie `Secure`: the host is reached over https, and no plain-http answer may replace or read it. */
  secure?: boolean;
}

/** Token mode: a request is the owner when it carries the token as a bearer or a live login cookie. */
export interface Auth {
  readonly cookieName: string;
  /** `rotate` false: the response cannot hand a rotated login back (a socket's upgrade, `/mcp`), so none is rotated. */
  authenticate(request: IncomingMessage, rotate?: boolean): Promise<FenceVerdict>;
  /**
   * Whether a token offered in a login link is right. A wrong one counts against the address like any failed
   * credential, unless another site's page sent it: then it is refused without counting, so no page can brake the owner.
   */
  checkLink(request: IncomingMessage, offered: string): FenceVerdict;
  /** `Set-Cookie` for a new login, or for clearing one. */
  newLogin(): Promise<string>;
  clearCookie(): string;
  /** Ends the login the request carries; true when there was one. */
  logout(request: IncomingMessage): Promise<boolean>;
}

const UNAUTHORIZED = { ok: false, status: 401, code: "UNAUTHORIZED" } as const;

/**
 * At most this many of a request's login cookies are checked, the last ones sent: the host's own (`Path=/`) is sent
 * after any with a longer path, so cookies another page added cannot push it out.
 */
export const MAX_LOGIN_COOKIES = 16;

export function createAuth(options: AuthOptions): Auth {
  const cookieName = options.cookieName ?? loginCookieName(options.port);
  const address = (request: IncomingMessage) => request.socket.remoteAddress ?? "unknown";
  const secure = options.secure ? "; Secure" : "";
  const loginCookie = (value: string) => `${cookieName}=${value}; Path=/; HttpOnly; SameSite=Strict; Priority=High${secure}; Max-Age=${Math.floor(LOGIN_TTL_MS / 1000)}`;

  /** A wrong credential counts against its address; past the budget it is answered 429 instead of 401. Right ones are never braked. */
  function failed(request: IncomingMessage, message: string): FenceVerdict {
    const verdict = options.limit("authFailures", address(request));
    if (verdict.ok) return { ...UNAUTHORIZED, message };
    return { ok: false, status: 429, code: "RATE_LIMITED", message: `too many wrong tokens from this address; retry in ${verdict.retryAfterSeconds} s`, retryAfterSeconds: verdict.retryAfterSeconds };
  }

  return {
    cookieName,
    async authenticate(request, rotate = true) {
      const bearer = bearerToken(request);
      const logins = [...new Set(readCookies(request, cookieName))].slice(-MAX_LOGIN_COOKIES);
      if (bearer === null && logins.length === 0) return { ...UNAUTHORIZED, message: `a valid token is required (Authorization: Bearer <token>, or open the login link)` };
      if (bearer !== null) return tokenMatches(bearer, options.token) ? { ok: true } : failed(request, "the bearer token is not valid");
      // Any live login lets the request in, whatever else is sent under its name; the rest of the request reads that one.
      for (const login of logins) {
        const check = await options.logins.check(login, rotate);
        if (!check.ok) continue;
        if (check.replacement === null) {
          if (logins.length > 1) replaceCookie(request, cookieName, login);
          return { ok: true };
        }
        replaceCookie(request, cookieName, check.replacement);
        return { ok: true, setCookie: loginCookie(check.replacement) };
      }
      return failed(request, "the login has expired or was revoked: open the login link again");
    },
    checkLink(request, offered) {
      if (tokenMatches(offered, options.token)) return { ok: true };
      const message = "the token in the link is not valid";
      return fromAnotherOrigin(request) ? { ...UNAUTHORIZED, message } : failed(request, message);
    },
    newLogin: async () => loginCookie(await options.logins.issue()),
    clearCookie: () => `${cookieName}=; Path=/; HttpOnly; SameSite=Strict${secure}; Max-Age=0`,
    async logout(request) {
      const login = readCookie(request, cookieName);
      return login !== null && (await options.logins.revoke(login));
    },
  };
}
