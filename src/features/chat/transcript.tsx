import { memo, useCallback, useEffect, useRef, type ReactNode } from "react";
import type { Message } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { useSessionStore } from "../../store/react";
import { selectTranscript } from "../../store/selectors";
import { Button } from "../../ui/button";
import { ErrorBoundary } from "../../ui/error-boundary";
import { FailedPart } from "./failed-part";
import { chatCopy } from "./copy";
import { MessageRow } from "./message-row";
import { useEarlierRows } from "./use-earlier-rows";
import { useFollow } from "./use-follow";

/** Rows rendered at first and added per "show earlier" step; older rows wait until scrolled to. */
export const TRANSCRIPT_WINDOW_ROWS = 200;
/**
 * Rows per group. A group is memoised, so a streaming delta reconciles one group instead of every row, and it is the
 * unit the browser skips off screen (`content-visibility`), so each frame checks 20 boxes for 200 rows, not 200.
 */
export const GROUP_ROWS = 10;
/** A row's height before it was ever rendered, for the space an unrendered group holds. */
const ROW_HEIGHT_GUESS_PX = 64;

function sameMessages(a: { messages: readonly Message[] }, b: { messages: readonly Message[] }): boolean {
  if (a.messages.length !== b.messages.length) return false;
  for (let index = 0; index < a.messages.length; index++) if (a.messages[index] !== b.messages[index]) return false;
  return true;
}

function FailedRow({ error, retry }: { error: unknown; retry: () => void }) {
  const t = useCopy(chatCopy);
  return <FailedPart summary={t("rowFailed")} error={error} retry={retry} />;
}

const renderFailedRow = (error: unknown, retry: () => void) => <FailedRow error={error} retry={retry} />;

// The rows are a list whose items sit in groups: a group is a plain box, which the accessibility tree passes over.
const RowGroup = memo(function RowGroup({ messages }: { messages: readonly Message[] }) {
  return (
    <div className="transcript__group" style={{ containIntrinsicBlockSize: `auto ${messages.length * ROW_HEIGHT_GUESS_PX}px` }}>
      {messages.map((message) => (
        <div key={message.id} role="listitem" className="transcript__row">
          <ErrorBoundary fallback={renderFailedRow} resetKey={message}>
            <MessageRow message={message} />
          </ErrorBoundary>
        </div>
      ))}
    </div>
  );
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

/** The session's messages, newest at the bottom; follows the newest content unless the user scrolled up on purpose. */
export interface TranscriptProps {
  sessionId: string;
  /** Changes when this tab sent a message: follow again, wherever the user had scrolled. */
  followSignal?: number;
  /** Shown while the chat has no message yet. */
  emptyScreen?: ReactNode;
}

export function Transcript({ sessionId, followSignal = 0, emptyScreen }: TranscriptProps) {
  const t = useCopy(chatCopy);
  const messages = useSessionStore(selectTranscript(sessionId));
  const scrollRef = useRef<HTMLElement>(null);
  const rowsRef = useRef<HTMLDivElement>(null);
  const earlierRef = useRef<HTMLDivElement>(null);
  const { hidden, reveal } = useEarlierRows(scrollRef, messages.length, TRANSCRIPT_WINDOW_ROWS);
  const { detachedAt, isFollowing, follow, detach, onScroll, onGesture } = useFollow({ scrollRef, rowsRef, messages, followSignal });
  const hasEarlier = hidden > 0;

  const showEarlier = useCallback(() => {
    reveal();
    detach();
  }, [reveal, detach]);

  useEffect(() => {
    const sentinel = earlierRef.current;
    const root = scrollRef.current;
    if (!sentinel || !root || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !isFollowing()) showEarlier();
      },
      { root, rootMargin: "400px 0px 0px 0px" },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasEarlier, showEarlier, isFollowing]);

  const unseen = detachedAt === null ? 0 : Math.max(0, messages.length - detachedAt);

  return (
    <section
      ref={scrollRef}
      className="transcript"
      aria-label={t("transcriptLabel")}
      tabIndex={0}
      onScroll={onScroll}
      onWheel={onGesture}
      onTouchMove={onGesture}
      onKeyDown={onGesture}
      onPointerDown={onGesture}
    >
      {hasEarlier && (
        <div ref={earlierRef} className="transcript__earlier">
          <Button variant="ghost" onClick={showEarlier}>
            {t("showEarlier")}
          </Button>
        </div>
      )}
      {messages.length === 0 ? (
        (emptyScreen ?? (
          <div className="transcript__empty">
            <p className="transcript__empty-title">{t("emptyTitle")}</p>
            <p>{t("emptyHint")}</p>
          </div>
        ))
      ) : (
        <div ref={rowsRef} role="list" className="transcript__rows">
          {groupRows(messages, hidden).map((group) => (
            <RowGroup key={group.key} messages={group.messages} />
          ))}
        </div>
      )}
      {detachedAt !== null && (
        <div className="transcript__jump">
          <Button variant="primary" onClick={follow}>
            {unseen > 0 ? t("jumpToLatestCount", { count: unseen }) : t("jumpToLatest")}
          </Button>
        </div>
      )}
    </section>
  );
}
