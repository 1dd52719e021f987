import { useSyncExternalStore } from "react";
import { useCopy } from "../../i18n/i18n";
import { Button } from "../../ui/button";
import { pushCopy } from "./copy";
import { installable, onInstallableChange } from "./install-prompt";

const DISMISSED_KEY = "parley-phone-offer";

/** Whether this device should be offered install and notifications up front: it can install Parley, or it is a touch device (a phone that just scanned the QR code). */
export function offerWanted(): boolean {
  if (readDismissed()) return false;
  return installable() || (typeof window.matchMedia === "function" && window.matchMedia("(pointer: coarse)").matches);
}

function readDismissed(): boolean {
  try {
    return window.localStorage.getItem(DISMISSED_KEY) === "dismissed";
  } catch {
    return false;
  }
}

export function rememberDismissed(): void {
  try {
    window.localStorage.setItem(DISMISSED_KEY, "dismissed");
  } catch {
    return;
  }
}

export function useInstallable(): boolean {
  return useSyncExternalStore(onInstallableChange, installable, () => false);
}

interface PhoneOfferProps {
  busy: boolean;
  problem: string | null;
  onAccept(): void;
  onDismiss(): void;
}

/** One tap for the phone path: install Parley (where the browser offers it) and turn on its notifications. */
export function PhoneOffer({ busy, problem, onAccept, onDismiss }: PhoneOfferProps) {
  const t = useCopy(pushCopy);
  const canInstall = useInstallable();
  return (
    <section aria-label={t("offerLabel")} className="parley-offer">
      <p>{t(canInstall ? "offerTextInstall" : "offerText")}</p>
      <div className="parley-offer__actions">
        <Button variant="primary" disabled={busy} onClick={onAccept}>
          {t(canInstall ? "offerAcceptInstall" : "offerAccept")}
        </Button>
        <Button variant="ghost" disabled={busy} onClick={onDismiss}>
          {t("offerDismiss")}
        </Button>
      </div>
      {problem && <p role="alert">{problem}</p>}
    </section>
  );
}
