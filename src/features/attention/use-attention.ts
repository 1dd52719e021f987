import { useEffect, useRef } from "react";
import { useCopy } from "../../i18n/i18n";
import type { PendingRequest } from "../../protocol/schemas";
import { createIndicator, type Indicator } from "./indicator";
import { attentionCopy } from "./copy";
import { createNotifier, type Notifier } from "./notifier";
import { canNotify, readNotifyOptIn } from "./notify-preference";
import { isPlanReview } from "../../store/selectors";
import { showHiddenCharacters } from "../../protocol/hidden-characters";
import { hidesText } from "../push/hide-text";
import { underNotificationLock } from "../../protocol/notification-lock";

export interface AttentionOptions {
  /** Every pending request of every session, in arrival order. */
  requests: readonly PendingRequest[];
  /** Shows the session; called when the user clicks a notification. */
  onOpenSession: (sessionId: string) => void;
}

function isHidden(): boolean {
  return document.visibilityState !== "visible";
}

/** A notification this tab showed (or a push showed first, under the same tag); `end()` closes it once its request is over. */
interface ShownHere {
  end(): void;
}

/**
 * Shows a request's notification through Parley's service worker when one is active, as a push for the request would be:
 * under the same tag, so on a device with push on too there is one (a push that comes second replaces it; one that came
 * first is kept, the check and the show under the request's notification lock that the worker's push takes too), and a tap
 * or a close push is handled by the worker (docs/protocol.md, push). Without a worker, or if it cannot show one, a page
 * notification whose click runs `onClick`. Ended before it is shown, it is never shown.
 */
function notify(title: string, options: NotificationOptions, request: PendingRequest, onClick: () => void): ShownHere {
  let ended = false;
  let close = () => undefined as void;
  const end = () => {
    ended = true;
    close();
  };
  const inPage = () => {
    if (ended) return;
    const notification = new Notification(title, options);
    notification.onclick = () => {
      onClick();
      notification.close();
    };
    close = () => notification.close();
  };
  let workers: ServiceWorkerContainer | undefined;
  try {
    workers = navigator.serviceWorker;
  } catch {
    // Firefox throws here for a site it may keep no data for: such a page has no worker, and shows the notification itself.
    workers = undefined;
  }
  if (!workers) {
    inPage();
    return { end };
  }
  // A registration that cannot be read (the page's context refuses workers) leaves the page to show it.
  void workers.getRegistration().catch(() => undefined).then(async (registration) => {
    if (registration?.active) {
      const locks = navigator.locks;
      const shownNow = () => registration.getNotifications({ tag: request.rpcId });
      try {
        await underNotificationLock(locks, request.rpcId, async () => {
          // A push for the request came first: it stays, with its answer buttons.
          if (ended || (await shownNow()).length > 0) return;
          await registration.showNotification(title, { ...options, data: { rpcId: request.rpcId, sessionId: request.sessionId, actions: [] } });
        });
        // The request over, whichever notification shows it goes (a push's too: its close push may come late, or never).
        close = () => {
          underNotificationLock(locks, request.rpcId, async () => {
            for (const shown of await shownNow()) shown.close();
          }).catch((error: unknown) => console.warn("the notification of a request that is over could not be closed", error));
        };
        if (ended) close();
        return;
      } catch (error) {
        console.warn("the service worker could not show the notification; the page shows it", error);
      }
    }
    inPage();
  });
  return { end };
}

/**
 * While the tab is hidden, counts the questions that arrive in the title (`(N)`) and dots
 * the favicon until the tab is seen; when the user opted in, one tab of all open ones shows
 * a desktop notification with the question text (no answer buttons), which brings the tab
 * and the session forward when clicked, and which it closes when the request is over.
 */
export function useAttention({ requests, onOpenSession }: AttentionOptions): void {
  const t = useCopy(attentionCopy);
  const unseen = useRef<Set<string>>(new Set());
  const known = useRef<Set<string>>(new Set());
  const notifier = useRef<Notifier | null>(null);
  /** The notifications this tab showed, by request. */
  const shownHere = useRef(new Map<string, ShownHere>());
  const indicator = useRef<Indicator | null>(null);
  const latest = useRef({ t, onOpenSession });

  useEffect(() => {
    latest.current = { t, onOpenSession };
  });

  useEffect(() => {
    const knownIds = known.current;
    const unseenIds = unseen.current;
    const created = createIndicator();
    indicator.current = created;
    created.show(unseen.current.size);
    const onVisibility = () => {
      if (isHidden()) return;
      unseenIds.clear();
      created.show(0);
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      created.dispose();
      indicator.current = null;
      knownIds.clear();
      unseenIds.clear();
    };
  }, []);

  useEffect(() => {
    const created = createNotifier({
      tabId: crypto.randomUUID(),
      show: (request) => {
        const { t: translate, onOpenSession: open } = latest.current;
        const first = request.questions[0]!;
        const more = request.questions.length - 1;
        // A device whose pushes hide the question (a setting of its push subscription) gets the same line here.
        const hide = hidesText();
        const title = hide ? "Parley" : translate(isPlanReview(request) ? "notificationTitlePlan" : "notificationTitle");
        // The model's words, drawn by the system as they are: hidden characters show as markers.
        const body = hide ? translate("notificationHidden") : showHiddenCharacters(more > 0 ? `${first.question}\n${translate("moreQuestions", { count: more })}` : first.question);
        const shown = notify(title, { body, tag: request.rpcId, icon: "/favicon.svg" }, request, () => {
          window.focus();
          open(request.sessionId);
        });
        shownHere.current.set(request.rpcId, shown);
      },
    });
    notifier.current = created;
    return () => {
      created.dispose();
      notifier.current = null;
    };
  }, []);

  useEffect(() => {
    const ids = new Set(requests.map((request) => request.rpcId));
    const hidden = isHidden();
    for (const request of requests) {
      if (known.current.has(request.rpcId)) continue;
      known.current.add(request.rpcId);
      if (hidden) unseen.current.add(request.rpcId);
      if (readNotifyOptIn() && canNotify()) notifier.current?.offer(request, !hidden);
    }
    for (const rpcId of known.current) {
      if (ids.has(rpcId)) continue;
      known.current.delete(rpcId);
      unseen.current.delete(rpcId);
      notifier.current?.withdraw(rpcId);
      shownHere.current.get(rpcId)?.end();
      shownHere.current.delete(rpcId);
    }
    indicator.current?.show(unseen.current.size);
  }, [requests]);
}
