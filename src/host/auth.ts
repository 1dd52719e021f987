import type { IncomingMessage } from "node:http";
import { bearerToken, readCookie, tokenMatches, type FenceVerdict } from "./fence";
import { loginCookieName, LOGIN_TTL_MS, type Logins } from "./logins";
import type { RouteLimiter } from "./rate-limit";

/** Shorter tokens are refused at start-up: a token guards every transcript and answer. */
export const MIN_TOKEN_CHARS = 16;

export interface AuthOptions {
  token: string;
  logins: Logins;
  port: number;
  limit: RouteLimiter;
}

/** Token mode: a request is the owner when it carries the token as a bearer or a live login cookie. */
export interface Auth {
  readonly cookieName: string;
  authenticate(request: IncomingMessage): FenceVerdict;
  /** Whether a token offered in a login link is right; wrong ones count against the address like any failed credential. */
  checkLink(request: IncomingMessage, offered: string): FenceVerdict;
  /** `Set-Cookie` for a new login, or for clearing one. */
  newLogin(): string;
  clearCookie(): string;
  /** Ends the login the request carries; true when there was one. */
  logout(request: IncomingMessage): boolean;
}

const UNAUTHORIZED = { ok: false, status: 401, code: "UNAUTHORIZED" } as const;

export function createAuth(options: AuthOptions): Auth {
  const cookieName = loginCookieName(options.port);
  const address = (request: IncomingMessage) => request.socket.remoteAddress ?? "unknown";
  const loginCookie = (value: string) => `${cookieName}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(LOGIN_TTL_MS / 1000)}`;

  /** A request that offers a credential is braked per address; one that offers none is simply refused. */
  function braked(request: IncomingMessage): FenceVerdict | null {
    const verdict = options.limit("authFailures", address(request), "peek");
    return verdict.ok ? null : { ok: false, status: 429, code: "RATE_LIMITED", message: `too many wrong tokens from this address; retry in ${verdict.retryAfterSeconds} s`, retryAfterSeconds: verdict.retryAfterSeconds };
  }

  function failed(request: IncomingMessage, message: string): FenceVerdict {
    options.limit("authFailures", address(request));
    return { ...UNAUTHORIZED, message };
  }

  return {
    cookieName,
    authenticate(request) {
      const bearer = bearerToken(request);
      const login = readCookie(request, cookieName);
      if (bearer === null && login === null) return { ...UNAUTHORIZED, message: `a valid token is required (Authorization: Bearer <token>, or open the login link)` };
      const brake = braked(request);
      if (brake) return brake;
      if (bearer !== null) return tokenMatches(bearer, options.token) ? { ok: true } : failed(request, "the bearer token is not valid");
      const check = options.logins.check(login!);
      if (!check.ok) return failed(request, "the login has expired or was revoked: open the login link again");
      return check.replacement === null ? { ok: true } : { ok: true, setCookie: loginCookie(check.replacement) };
    },
    checkLink(request, offered) {
      const brake = braked(request);
      if (brake) return brake;
      return tokenMatches(offered, options.token) ? { ok: true } : failed(request, "the token in the link is not valid");
    },
    newLogin: () => loginCookie(options.logins.issue()),
    clearCookie: () => `${cookieName}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`,
    logout(request) {
      const login = readCookie(request, cookieName);
      return login !== null && options.logins.revoke(login);
    },
  };
}
