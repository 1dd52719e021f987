import { useState } from "react";
import { useCopy } from "../../i18n/i18n";
import { Button } from "../../ui/button";
import { describeError } from "../../ui/error-boundary";
import { chatCopy } from "./copy";

export interface FailedPartProps {
  /** What failed, already translated: "The question panel could not be shown." */
  summary: string;
  error: unknown;
  retry: () => void;
  /** Offered as `Dismiss` when the failed part stands for something that can be ended without it. */
  onDismiss?: () => Promise<void>;
}

/** Shown in place of a part of the chat that threw while rendering. */
export function FailedPart({ summary, error, retry, onDismiss }: FailedPartProps) {
  const t = useCopy(chatCopy);
  const [busy, setBusy] = useState(false);
  const [dismissError, setDismissError] = useState<string | null>(null);
  const dismiss = async () => {
    if (!onDismiss) return;
    setBusy(true);
    setDismissError(null);
    try {
      await onDismiss();
    } catch (failure) {
      setDismissError(t("dismissFailed", { reason: describeError(failure) }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div role="alert" className="failed-part">
      <p className="failed-part__summary">{summary}</p>
      <p className="failed-part__reason" dir="auto">
        {describeError(error)}
      </p>
      <div className="failed-part__actions">
        <Button onClick={retry}>{t("tryAgain")}</Button>
        {onDismiss && (
          <Button variant="danger" onClick={() => void dismiss()} disabled={busy}>
            {t("dismiss")}
          </Button>
        )}
      </div>
      {dismissError && <p className="failed-part__error">{dismissError}</p>}
    </div>
  );
}
