import type { DownFrame } from "../protocol/schemas";

/**
 * Remembers which sessions and messages frames touched, so a fetch can tell which of its
 * results went stale while it was in flight.
 */
export interface LiveTouches {
  /** A mark to pass to `since` later. */
  mark(): number;
  record(frame: DownFrame): void;
  /** Ids of sessions and messages touched by frames recorded after `mark`. */
  since(mark: number): Set<string>;
}

function touchedId(frame: DownFrame): string | null {
  switch (frame.type) {
    case "session/upserted":
      return frame.session.id;
    case "session/deleted":
      return frame.sessionId;
    case "message/upserted":
      return frame.message.id;
    case "message/delta":
      return frame.messageId;
    case "hello":
    case "question/requested":
    case "question/resolved":
    case "synced":
      return null;
    default:
      frame satisfies never;
      return null;
  }
}

export function createLiveTouches(): LiveTouches {
  let clock = 0;
  const touched = new Map<string, number>();
  return {
    mark: () => clock,
    record(frame) {
      const id = touchedId(frame);
      if (id === null) return;
      clock += 1;
      touched.set(id, clock);
    },
    since(mark) {
      const ids = new Set<string>();
      for (const [id, at] of touched) if (at > mark) ids.add(id);
      return ids;
    },
  };
}
