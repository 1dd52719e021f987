import { useCallback, useEffect, useState } from "react";
import type { Api } from "../client/api";
import { muxUrl, type MuxConnection, type MuxOptions } from "../client/mux";
import { createSessionEngine } from "../client/session-engine";
import { NEW_CHAT_DRAFT } from "../features/chat/composer";
import { chatCopy } from "../features/chat/copy";
import { tellWorkerPending } from "../features/push/tell-worker";
import { describeFailure } from "../features/chat/failure";
import { retireDraft, settleResponse } from "../features/question/retired-drafts";
import { useCopy } from "../i18n/i18n";
import type { SessionStore } from "../store/session-store";
import type { LoadProblem } from "./load-problem";

const NONE_HIDDEN: ReadonlySet<string> = new Set();

/**
 * The app's session engine, started while mounted, with its events as React state: `navigate` goes to
 * the URL hash, the open session follows it, and rename and search fail with translated messages.
 */
export function useSessionEngine(options: {
  store: SessionStore;
  api: Api;
  connect: (options: MuxOptions) => MuxConnection;
  drafts: Map<string, string>;
  activeSessionId: string | null;
  navigate: (sessionId: string | null) => void;
}) {
  const { store, api, connect, drafts, activeSessionId, navigate } = options;
  const tChat = useCopy(chatCopy);
  const [engine] = useState(() => createSessionEngine({ store, api, connect, url: muxUrl(window.location), drafts, newChatDraftKey: NEW_CHAT_DRAFT, retireDraft, settleResponse }));
  const [synced, setSynced] = useState(false);
  const [loadProblem, setLoadProblem] = useState<LoadProblem>(null);
  const [hiddenSessions, setHiddenSessions] = useState(NONE_HIDDEN);

  useEffect(
    () =>
      engine.on((event) => {
        switch (event.type) {
          case "navigate":
            return navigate(event.sessionId);
          case "loaded":
            return setLoadProblem(null);
          case "session-missing":
          case "load-failed":
          case "delete-failed":
            return setLoadProblem(event);
          case "synced":
            return setSynced(true);
          case "pending-known":
            return tellWorkerPending(event.rpcIds);
          case "hidden-sessions":
            return setHiddenSessions(event.sessionIds);
          case "requests-left":
            return;
          default:
            event satisfies never;
        }
      }),
    [engine, navigate],
  );
  useEffect(() => {
    engine.start();
    return () => engine.close();
  }, [engine]);
  useEffect(() => engine.open(activeSessionId), [engine, activeSessionId]);

  const rename = useCallback(
    (sessionId: string, title: string) =>
      engine.rename(sessionId, title).catch((error: unknown) => {
        throw new Error(tChat("renameFailed", { reason: describeFailure(error, tChat) }), { cause: error });
      }),
    [engine, tChat],
  );
  const search = useCallback(
    (query: string, before?: string) =>
      engine.search(query, before).catch((error: unknown) => {
        throw new Error(describeFailure(error, tChat), { cause: error });
      }),
    [engine, tChat],
  );
  return { engine, synced, loadProblem, hiddenSessions, rename, search };
}
