import type { SessionEngineEvent } from "../client/session-engine";
import { chatCopy } from "../features/chat/copy";
import { describeFailure } from "../features/chat/failure";
import { useCopy } from "../i18n/i18n";
import { appCopy } from "./copy";

/** What went wrong loading from the host; translated when shown, so a locale switch does not reconnect. */
export type LoadProblem = null | (SessionEngineEvent & { type: "session-missing" | "load-failed" | "delete-failed" });

/** The alert above the conversation while a load or a delete has failed. */
export function LoadProblemAlert({ problem }: { problem: LoadProblem }) {
  const t = useCopy(appCopy);
  const tChat = useCopy(chatCopy);
  if (problem === null) return null;
  return (
    <p role="alert" className="shell__error">
      {problem.type === "session-missing"
        ? t("sessionMissing")
        : problem.type === "delete-failed"
          ? t("deleteFailed", { reason: describeFailure(problem.error, tChat) })
          : t("loadFailed", { reason: describeFailure(problem.error, tChat) })}
    </p>
  );
}
