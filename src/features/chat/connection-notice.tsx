import { useCopy } from "../../i18n/i18n";
import { useSessionStore } from "../../store/react";
import { selectAccess, selectConnection } from "../../store/selectors";
import { Button } from "../../ui/button";
import { useFocusHandoff } from "../../ui/focus-handoff";
import { chatCopy } from "./copy";

/**
 * A banner while the downlink is not online, with `Retry now` when it is offline; empty (but still a live region) when
 * online. `onFocusLost` says where keyboard focus goes when `Retry now` held it and went away.
 */
export function ConnectionNotice({ onRetryNow, onFocusLost }: { onRetryNow?: () => void; onFocusLost?: () => void }) {
  const t = useCopy(chatCopy);
  const connection = useSessionStore(selectConnection);
  const access = useSessionStore(selectAccess);
  const retryButton = useFocusHandoff(onFocusLost);
  return (
    <div role="status" className="connection-notice" data-connection={connection}>
      {connection === "connecting" && <p className="connection-notice__text">{t("connecting")}</p>}
      {connection === "offline" && (
        <>
          <p className="connection-notice__text">{access === "login-required" ? t("loginRequired") : t("offline")}</p>
          {onRetryNow && (
            <Button ref={retryButton} variant="secondary" onClick={onRetryNow}>
              {t("retryNow")}
            </Button>
          )}
        </>
      )}
    </div>
  );
}
