import { ApiError } from "../client/api";
import type { SessionEngineEvent } from "../client/session-engine";
import { chatCopy } from "../features/chat/copy";
import { classifyFailure, describeFailure } from "../features/chat/failure";
import { useCopy } from "../i18n/i18n";
import { appCopy } from "./copy";

/** What went wrong loading from the host; translated when shown, so a locale switch does not reconnect. */
export type LoadProblem = null | (SessionEngineEvent & { type: "session-missing" | "load-failed" | "delete-failed" });

/** The alert above the conversation while a load or a delete has failed. */
export function LoadProblemAlert({ problem }: { problem: LoadProblem }) {
  const t = useCopy(appCopy);
  const tChat = useCopy(chatCopy);
  if (problem === null) return null;
  const reason = (error: unknown) => {
    if (classifyFailure(error) !== "rate-limited") return describeFailure(error, tChat);
    const seconds = error instanceof ApiError ? error.retryAfterSeconds : undefined;
    return seconds === undefined ? t("rateLimited") : t("rateLimitedFor", { seconds });
  };
  return (
    <p role="alert" className="shell__error">
      {problem.type === "session-missing"
        ? t("sessionMissing")
        : problem.type === "delete-failed"
          ? t("deleteFailed", { reason: reason(problem.error) })
          : t("loadFailed", { reason: reason(problem.error) })}
    </p>
  );
}
