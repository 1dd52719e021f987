import { useCopy } from "../../i18n/i18n";
import { questionCopy } from "./copy";
import { useAskerSentence } from "./asker";

/** What the status line says; null says nothing. */
export type PanelStatus =
  | { kind: "complete-first" }
  | { kind: "rejected"; reason: string; detail: string }
  | { kind: "error"; message: string }
  | { kind: "sent" }
  | { kind: "cancelling" }
  | null;

export function StatusLine({ status }: { status: PanelStatus }) {
  const t = useCopy(questionCopy);
  const say = useAskerSentence();
  return (
    <>
      <p role="status" className="question-panel__status" data-kind={status?.kind ?? "none"}>
        {status?.kind === "complete-first" && <span>{t("completeFirst")}</span>}
        {status?.kind === "rejected" && <span>{t("rejected", { reason: status.reason })}</span>}
        {status?.kind === "error" && <span>{status.message}</span>}
        {status?.kind === "sent" && <span>{say("sent")}</span>}
        {status?.kind === "cancelling" && <span>{t("cancelling")}</span>}
      </p>
      {status?.kind === "rejected" && status.detail !== "" && <p className="question-panel__status-detail">{status.detail}</p>}
    </>
  );
}
