import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import type { Message } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { useSessionStore } from "../../store/react";
import { selectTranscript } from "../../store/selectors";
import { Button } from "../../ui/button";
import { ErrorBoundary } from "../../ui/error-boundary";
import { FailedPart } from "./failed-part";
import { judgeScroll } from "./follow";
import { chatCopy } from "./copy";
import { MessageRow } from "./message-row";

/** Rows rendered at first and added per "show earlier" step; older rows wait until scrolled to. */
export const TRANSCRIPT_WINDOW_ROWS = 200;
/** Rows per memoised group, so a streaming delta reconciles one group instead of every row. */
const GROUP_ROWS = 50;

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
  const [windowRows, setWindowRows] = useState(TRANSCRIPT_WINDOW_ROWS);
  /** The message count when the user scrolled away from the end; null while following. */
  const [detachedAt, setDetachedAt] = useState<number | null>(null);
  const [followedSignal, setFollowedSignal] = useState(followSignal);
  if (followedSignal !== followSignal) {
    setFollowedSignal(followSignal);
    setDetachedAt(null);
  }
  const scrollRef = useRef<HTMLElement>(null);
  const rowsRef = useRef<HTMLOListElement>(null);
  const earlierRef = useRef<HTMLDivElement>(null);
  const followingRef = useRef(true);
  const gestureAtRef = useRef(Number.NEGATIVE_INFINITY);
  const restoreRef = useRef<{ height: number; top: number } | null>(null);
  /** The heights seen at the last scroll event, to tell a move of the layout from a move of the user. */
  const seenSizeRef = useRef({ scrollHeight: 0, clientHeight: 0 });
  const stickFrameRef = useRef<number | null>(null);
  const countRef = useRef(messages.length);

  const hidden = Math.max(0, messages.length - windowRows);
  const hasEarlier = hidden > 0;
  const empty = messages.length === 0;

  const stick = useCallback(() => {
    const element = scrollRef.current;
    if (!element || !followingRef.current) return;
    element.scrollTop = element.scrollHeight;
  }, []);

  const detach = useCallback(() => {
    if (!followingRef.current) return;
    followingRef.current = false;
    setDetachedAt(countRef.current);
  }, []);

  const follow = useCallback(() => {
    followingRef.current = true;
    setDetachedAt(null);
  }, []);

  const showEarlier = useCallback(() => {
    const element = scrollRef.current;
    if (element) restoreRef.current = { height: element.scrollHeight, top: element.scrollTop };
    detach();
    setWindowRows((rows) => rows + TRANSCRIPT_WINDOW_ROWS);
  }, [detach]);

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const restore = restoreRef.current;
    if (!restore) return;
    restoreRef.current = null;
    element.scrollTop = restore.top + (element.scrollHeight - restore.height);
  }, [windowRows]);

  useLayoutEffect(() => {
    countRef.current = messages.length;
    if (!followingRef.current || stickFrameRef.current !== null) return;
    stickFrameRef.current = requestAnimationFrame(() => {
      stickFrameRef.current = null;
      stick();
    });
  }, [messages, stick]);


  useLayoutEffect(() => {
    if (detachedAt !== null) return;
    followingRef.current = true;
    stick();
  }, [detachedAt, stick]);

  useEffect(() => {
    const element = scrollRef.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(stick);
    observer.observe(element);
    if (rowsRef.current) observer.observe(rowsRef.current);
    return () => observer.disconnect();
  }, [stick, empty]);

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
        if (entries.some((entry) => entry.isIntersecting) && !followingRef.current) showEarlier();
      },
      { root, rootMargin: "400px 0px 0px 0px" },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasEarlier, showEarlier]);

  const onGesture = () => {
    gestureAtRef.current = performance.now();
  };

  const onScroll = () => {
    const element = scrollRef.current;
    if (!element) return;
    const { scrollHeight, clientHeight } = element;
    const seen = seenSizeRef.current;
    const layoutChanged = seen.scrollHeight !== scrollHeight || seen.clientHeight !== clientHeight;
    seenSizeRef.current = { scrollHeight, clientHeight };
    const verdict = judgeScroll({
      distanceFromEnd: scrollHeight - element.scrollTop - clientHeight,
      following: followingRef.current,
      sinceGestureMs: performance.now() - gestureAtRef.current,
      layoutChanged,
    });
    switch (verdict) {
      case "follow":
        follow();
        return;
      case "detach":
        detach();
        return;
      case "restick":
        stick();
        return;
      case "none":
        return;
      default:
        verdict satisfies never;
    }
  };

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
        <ol ref={rowsRef} className="transcript__rows">
          {groupRows(messages, hidden).map((group) => (
            <RowGroup key={group.key} messages={group.messages} />
          ))}
        </ol>
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
