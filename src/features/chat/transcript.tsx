import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { Message } from "../../protocol/schemas";
import { useMessages } from "../../i18n/i18n";
import { useSessionStore } from "../../store/react";
import { selectTranscript } from "../../store/selectors";
import { Button } from "../../ui/button";
import { ErrorBoundary } from "../../ui/error-boundary";
import { FailedPart } from "./failed-part";
import { chatMessages } from "./messages";
import { MessageRow } from "./message-row";

/** Rows rendered at first and added per "show earlier" step; older rows wait until scrolled to. */
export const TRANSCRIPT_WINDOW_ROWS = 200;
const STICK_TO_BOTTOM_PX = 48;
/** Rows per memoised group, so a streaming delta reconciles one group instead of every row. */
const GROUP_ROWS = 50;

function sameMessages(a: { messages: readonly Message[] }, b: { messages: readonly Message[] }): boolean {
  if (a.messages.length !== b.messages.length) return false;
  for (let index = 0; index < a.messages.length; index++) if (a.messages[index] !== b.messages[index]) return false;
  return true;
}

function FailedRow({ error, retry }: { error: unknown; retry: () => void }) {
  const t = useMessages(chatMessages);
  return <FailedPart summary={t("rowFailed")} error={error} retry={retry} />;
}

const renderFailedRow = (error: unknown, retry: () => void) => <FailedRow error={error} retry={retry} />;

const RowGroup = memo(function RowGroup({ messages }: { messages: readonly Message[] }) {
  return messages.map((message) => (
    <li key={message.id} className="transcript__row">
      <ErrorBoundary fallback={renderFailedRow} resetKey={message}>
        <MessageRow message={message} />
      </ErrorBoundary>
    </li>
  ));
}, sameMessages);

/** Splits the rendered rows into groups whose boundaries depend on absolute position, so they stay put as the window grows. */
function groupRows(messages: readonly Message[], first: number): { key: number; messages: readonly Message[] }[] {
  const groups: { key: number; messages: readonly Message[] }[] = [];
  for (let start = first; start < messages.length; ) {
    const group = Math.floor(start / GROUP_ROWS);
    const end = Math.min(messages.length, (group + 1) * GROUP_ROWS);
    groups.push({ key: group, messages: messages.slice(start, end) });
    start = end;
  }
  return groups;
}

/** The session's messages, newest at the bottom, following the stream while scrolled to the end. */
export function Transcript({ sessionId }: { sessionId: string }) {
  const t = useMessages(chatMessages);
  const messages = useSessionStore(selectTranscript(sessionId));
  const [windowRows, setWindowRows] = useState(TRANSCRIPT_WINDOW_ROWS);
  const scrollRef = useRef<HTMLElement>(null);
  const earlierRef = useRef<HTMLDivElement>(null);
  const atBottomRef = useRef(true);
  const restoreRef = useRef<{ height: number; top: number } | null>(null);
  const stickFrameRef = useRef<number | null>(null);

  const hidden = Math.max(0, messages.length - windowRows);

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
    if (!restore) return;
    restoreRef.current = null;
    element.scrollTop = restore.top + (element.scrollHeight - restore.height);
  }, [windowRows]);

  useLayoutEffect(() => {
    if (!atBottomRef.current || stickFrameRef.current !== null) return;
    stickFrameRef.current = requestAnimationFrame(() => {
      stickFrameRef.current = null;
      const element = scrollRef.current;
      if (element && atBottomRef.current) element.scrollTop = element.scrollHeight;
    });
  }, [messages]);

  useEffect(
    () => () => {
      if (stickFrameRef.current !== null) cancelAnimationFrame(stickFrameRef.current);
    },
    [],
  );

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
          {groupRows(messages, hidden).map((group) => (
            <RowGroup key={group.key} messages={group.messages} />
          ))}
        </ol>
      )}
    </section>
  );
}
