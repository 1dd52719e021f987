import type { ChatKey } from "./copy";

type T = (key: ChatKey, values?: Record<string, string | number>) => string;

/** What kind of failure a rejected request was, for copy in the user's language. */
export type FailureKind = "unreachable" | "turn-running" | "rate-limited" | "missing" | "storage" | "other";

function codeOf(error: unknown): string | null {
  if (typeof error !== "object" || error === null || !Object.hasOwn(error, "code")) return null;
  const code = (error as { code: unknown }).code;
  return typeof code === "string" ? code : null;
}

/** Sorts a rejection from `fetch` or the API client: a network failure has no host error code. */
export function classifyFailure(error: unknown): FailureKind {
  const code = codeOf(error);
  if (code === null) return error instanceof TypeError ? "unreachable" : "other";
  switch (code) {
    case "TURN_RUNNING":
      return "turn-running";
    case "RATE_LIMITED":
      return "rate-limited";
    case "NOT_FOUND":
      return "missing";
    case "STORAGE_FULL":
    case "STORAGE_READONLY":
      return "storage";
    default:
      return "other";
  }
}

/** One translated sentence saying why a request failed; host text appears only for failures without copy of their own. */
export function describeFailure(error: unknown, t: T): string {
  const kind = classifyFailure(error);
  switch (kind) {
    case "unreachable":
      return t("failureUnreachable");
    case "turn-running":
      return t("failureTurnRunning");
    case "rate-limited":
      return t("failureRateLimited");
    case "missing":
      return t("failureMissing");
    case "storage":
      return t("failureStorage");
    case "other":
      return t("failureOther", { reason: error instanceof Error ? error.message : String(error) });
    default:
      kind satisfies never;
      return "";
  }
}
