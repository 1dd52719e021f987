import { useMessages } from "../../i18n/i18n";
import { useSessionStore } from "../../store/react";
import { selectConnection } from "../../store/selectors";
import { chatMessages } from "./messages";

/** Says so while the downlink is not online; renders nothing when it is. */
export function ConnectionNotice() {
  const t = useMessages(chatMessages);
  const connection = useSessionStore(selectConnection);
  return (
    <p role="status" className="connection-notice" data-connection={connection}>
      {connection === "connecting" ? t("connecting") : connection === "offline" ? t("offline") : ""}
    </p>
  );
}
