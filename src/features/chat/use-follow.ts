import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from "react";
import type { Message } from "../../protocol/schemas";
import { afterPress } from "../../ui/press-activity";
import { judgeScroll } from "./follow";

export interface FollowOptions {
  /** The scrolling element, and the rows inside it whose growth moves the end. */
  scrollRef: RefObject<HTMLElement | null>;
  rowsRef: RefObject<HTMLElement | null>;
  messages: readonly Message[];
  /** Changes when this tab sent a message: follow again, wherever the user had scrolled. */
  followSignal: number;
}

/**
 * Keeps the transcript scrolled to its newest content (new rows, rows that grow, a view that
 * resizes) until the user scrolls away on purpose; `judgeScroll` reads each scroll event. While a
 * pointer is pressed the view holds still, and catches up with the end once it is released.
 * `detachedAt` is the message count when the user scrolled away, null while following.
 */
export function useFollow({ scrollRef, rowsRef, messages, followSignal }: FollowOptions) {
  const [detachedAt, setDetachedAt] = useState<number | null>(null);
  const [followedSignal, setFollowedSignal] = useState(followSignal);
  if (followedSignal !== followSignal) {
    setFollowedSignal(followSignal);
    setDetachedAt(null);
  }
  const followingRef = useRef(true);
  const gestureAtRef = useRef(Number.NEGATIVE_INFINITY);
  /** The heights seen at the last scroll event, to tell a move of the layout from a move of the user. */
  const seenSizeRef = useRef({ scrollHeight: 0, clientHeight: 0 });
  const stickFrameRef = useRef<number | null>(null);
  const countRef = useRef(messages.length);
  const empty = messages.length === 0;

  const stickQueuedRef = useRef(false);
  // Not while a pointer is pressed: the row under it would move away and its click be lost; the end is caught up on release.
  const stick = useCallback(() => {
    if (stickQueuedRef.current) return;
    stickQueuedRef.current = true;
    afterPress(() => {
      stickQueuedRef.current = false;
      const element = scrollRef.current;
      if (!element || !followingRef.current) return;
      element.scrollTop = element.scrollHeight;
    });
  }, [scrollRef]);

  const detach = useCallback(() => {
    if (!followingRef.current) return;
    followingRef.current = false;
    setDetachedAt(countRef.current);
  }, []);

  const follow = useCallback(() => {
    followingRef.current = true;
    setDetachedAt(null);
  }, []);

  const isFollowing = useCallback(() => followingRef.current, []);

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
  }, [scrollRef, rowsRef, stick, empty]);

  useEffect(
    () => () => {
      if (stickFrameRef.current !== null) cancelAnimationFrame(stickFrameRef.current);
    },
    [],
  );

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

  return { detachedAt, isFollowing, follow, detach, onScroll, onGesture };
}
