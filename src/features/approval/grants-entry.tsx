import { lazy, Suspense } from "react";
import { useSessionStore } from "../../store/react";
import { selectTranscript } from "../../store/selectors";
import type { SessionData } from "../../store/state";
import type { GrantsSource } from "./grants-menu";
// The menu's styles stay in the first screen's stylesheet, in the order the cards' and the panel's rules expect.
import "../../ui/composer-card.css";
import "./approval.css";

/** Whether any call in the session ran on a grant or made one: only then does the header offer the list. */
export function hasGrantedCalls(sessionId: string, state: SessionData): boolean {
  return selectTranscript(sessionId)(state).some((message) => message.tool?.mcp?.approval === "allowed-for-chat" || message.tool?.mcp?.approval === "granted");
}

const GrantsMenu = lazy(() => import("./grants-menu").then((module) => ({ default: module.GrantsMenu })));

/** The chat header's `Allowed tools` menu, loaded once a call in the chat ran on a grant or made one. */
export function GrantsEntry({ sessionId, source }: { sessionId: string; source?: GrantsSource }) {
  const shown = useSessionStore((state) => hasGrantedCalls(sessionId, state));
  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <GrantsMenu sessionId={sessionId} {...(source ? { source } : {})} />
    </Suspense>
  );
}
