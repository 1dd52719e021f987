import { useId, useState } from "react";
import { useCopy } from "../../i18n/i18n";
import { attentionCopy } from "./copy";
import { useNotifyOptIn } from "./notify-preference";
import "./attention.css";

type Problem = null | "unsupported" | "denied";

function notificationsSupported(): boolean {
  return typeof Notification !== "undefined";
}

/** The opt-in for desktop notifications; asking the browser's permission on the first check. */
export function NotifyToggle() {
  const t = useCopy(attentionCopy);
  const [optedIn, setOptedIn] = useNotifyOptIn();
  const supported = notificationsSupported();
  const [problem, setProblem] = useState<Problem>(() =>
    !supported ? "unsupported" : Notification.permission === "denied" ? "denied" : null,
  );
  const [asking, setAsking] = useState(false);
  const hintId = useId();
  const checked = supported && optedIn && Notification.permission === "granted";

  const onChange = async (on: boolean) => {
    if (!on) {
      setOptedIn(false);
      return;
    }
    setAsking(true);
    try {
      const permission = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      setProblem(permission === "denied" ? "denied" : null);
      setOptedIn(permission === "granted");
    } finally {
      setAsking(false);
    }
  };

  return (
    <div className="notify-toggle">
      <label className="notify-toggle__label">
        <input
          type="checkbox"
          checked={checked}
          disabled={!supported || asking}
          aria-describedby={problem ? hintId : undefined}
          onChange={(event) => void onChange(event.target.checked)}
        />
        <span>{t("notifyMe")}</span>
      </label>
      {problem && (
        <p id={hintId} className="notify-toggle__hint">
          {problem === "unsupported" ? t("notifyUnsupported") : t("notifyDenied")}
        </p>
      )}
    </div>
  );
}
