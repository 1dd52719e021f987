import type { Session, SessionState } from "../../protocol/schemas";
import { SessionStoreProvider } from "../../store/react";
import { createSessionStore, type SessionStore } from "../../store/session-store";
import { Conversation, type ConversationProps } from "./conversation";

/** A store whose session list holds one session per `[id, title, state]`, all created at one moment. */
export function storeWithSessions(...sessions: [id: string, title: string, state: SessionState][]): SessionStore {
  const store = createSessionStore();
  const at = "2026-11-30T09:00:00.000Z";
  store.getState().loadSessions(sessions.map(([id, title, state]): Session => ({ id, title, createdAt: at, updatedAt: at, state })));
  return store;
}

/** The Conversation of session `s-1` over `store`, with inert handlers and no drafts unless `props` say otherwise. */
export function conversationView(store: SessionStore, props: Partial<ConversationProps> & Pick<ConversationProps, "slotEntries">) {
  return (
    <SessionStoreProvider store={store}>
      <Conversation sessionId="s-1" drafts={new Map()} onSend={async () => undefined} onStop={async () => undefined} fallbackTitle="New chat" {...props} />
    </SessionStoreProvider>
  );
}
