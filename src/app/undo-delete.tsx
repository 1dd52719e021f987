import { useCallback, useEffect, useState } from "react";
import { shownTitle } from "../protocol/chat-title";
import type { SessionEngine } from "../client/session-engine";
import { UNDO_DELETE_MS } from "../client/undoable-delete";
import { useCopy } from "../i18n/i18n";
import type { SessionStore } from "../store/session-store";
import { Button } from "../ui/button";
import { Toast } from "../ui/toast";
import { appCopy } from "./copy";

/** Deleting a chat with an undo toast: `requestDelete` hides it through the engine, `toast` offers Undo for the undo window. */
export function useUndoDelete(engine: SessionEngine, store: SessionStore) {
  const t = useCopy(appCopy);
  const [lastDeleted, setLastDeleted] = useState<{ id: string; title: string } | null>(null);

  const requestDelete = useCallback(
    (sessionId: string) => {
      const session = store.getState().sessions.find((candidate) => candidate.id === sessionId);
      engine.requestDelete(sessionId);
      setLastDeleted({ id: sessionId, title: shownTitle(session?.title ?? "", t("newChatTitle")) });
    },
    [engine, store, t],
  );

  useEffect(() => {
    if (!lastDeleted) return;
    const timer = setTimeout(() => setLastDeleted(null), UNDO_DELETE_MS);
    return () => clearTimeout(timer);
  }, [lastDeleted]);

  // The page may be going away: on pagehide, and on hidden (the last event a phone surely sends before it
  // discards a tab), what waits in the undo window is deleted at once, and Undo goes with it.
  useEffect(() => {
    const flush = () => {
      engine.flushDeletes();
      setLastDeleted(null);
    };
    const flushWhenHidden = () => {
      if (document.visibilityState === "hidden") flush();
    };
    window.addEventListener("pagehide", flush);
    document.addEventListener("visibilitychange", flushWhenHidden);
    return () => {
      window.removeEventListener("pagehide", flush);
      document.removeEventListener("visibilitychange", flushWhenHidden);
    };
  }, [engine]);

  const toast = lastDeleted && (
    <Toast>
      <span dir="auto">{t("chatDeleted", { title: lastDeleted.title })}</span>
      <Button
        variant="secondary"
        onClick={() => {
          engine.undoDelete(lastDeleted.id);
          setLastDeleted(null);
        }}
      >
        {t("undo")}
      </Button>
    </Toast>
  );
  return { requestDelete, toast };
}
