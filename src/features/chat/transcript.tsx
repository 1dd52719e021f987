import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useMessages } from "../../i18n/i18n";
import { useSessionStore } from "../../store/react";
import { selectTranscript } from "../../store/selectors";
import { Button } from "../../ui/button";
import { chatMessages } from "./messages";
import { MessageRow } from "./message-row";

/** Rows rendered at first and added per "show earlier" step; older rows wait until scrolled to. */
export const TRANSCRIPT_WINDOW_ROWS = 200;
const STICK_TO_BOTTOM_PX = 48;

/** The session's messages, newest at the bottom, following the stream while scrolled to the end. */
export function Transcript({ sessionId }: { sessionId: string }) {
  const t = useMessages(chatMessages);
  const messages = useSessionStore(selectTranscript(sessionId));
  const [windowRows, setWindowRows] = useState(TRANSCRIPT_WINDOW_ROWS);
  const scrollRef = useRef<HTMLElement>(null);
  const earlierRef = useRef<HTMLDivElement>(null);
  const atBottomRef = useRef(true);
  const restoreRef = useRef<{ height: number; top: number } | null>(null);

  const hidden = Math.max(0, messages.length - windowRows);
  const visible = hidden > 0 ? messages.slice(hidden) : messages;

  const hasEarlier = hidden > 0;

  const showEarlier = useCallback(() => {
    const element = scrollRef.current;
    if (element) restoreRef.current = { height: element.scrollHeight, top: element.scrollTop };
    setWindowRows((rows) => rows + TRANSCRIPT_WINDOW_ROWS);
  }, []);

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const restore = restoreRef.current;
    if (restore) {
      restoreRef.current = null;
      element.scrollTop = restore.top + (element.scrollHeight - restore.height);
      return;
    }
    if (atBottomRef.current) element.scrollTop = element.scrollHeight;
  }, [messages, windowRows]);

  useEffect(() => {
    const sentinel = earlierRef.current;
    const root = scrollRef.current;
    if (!sentinel || !root || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !atBottomRef.current) showEarlier();
      },
      { root, rootMargin: "400px 0px 0px 0px" },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasEarlier, showEarlier]);

  const onScroll = () => {
    const element = scrollRef.current;
    if (!element) return;
    atBottomRef.current = element.scrollHeight - element.scrollTop - element.clientHeight < STICK_TO_BOTTOM_PX;
  };

  return (
    <section ref={scrollRef} className="transcript" aria-label={t("transcriptLabel")} tabIndex={0} onScroll={onScroll}>
      {hasEarlier && (
        <div ref={earlierRef} className="transcript__earlier">
          <Button variant="ghost" onClick={showEarlier}>
            {t("showEarlier")}
          </Button>
        </div>
      )}
      {messages.length === 0 ? (
        <div className="transcript__empty">
          <p className="transcript__empty-title">{t("emptyTitle")}</p>
          <p>{t("emptyHint")}</p>
        </div>
      ) : (
        <ol className="transcript__rows">
          {visible.map((message) => (
            <li key={message.id} className="transcript__row">
              <MessageRow message={message} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
