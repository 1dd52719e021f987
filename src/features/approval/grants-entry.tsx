import { Suspense } from "react";
import { ErrorBoundary } from "../../ui/error-boundary";
import { useSessionStore } from "../../store/react";
import { selectTranscript } from "../../store/selectors";
import type { SessionData } from "../../store/state";
import { lazyModule } from "../../ui/lazy-module";
// The menu's styles stay in the first screen's stylesheet, in the order the cards' and the panel's rules expect.
import "../../ui/composer-card.css";
import "./approval.css";

/** Whether any call in the session ran on a grant or made one: only then does the header offer the list. */
export function hasGrantedCalls(sessionId: string, state: SessionData): boolean {
  return selectTranscript(sessionId)(state).some((message) => message.tool?.mcp?.approval === "allowed-for-chat" || message.tool?.mcp?.approval === "granted");
}

const GrantsMenu = lazyModule(() => import("./grants-menu")).component((module) => module.GrantsMenu);

/** The chat header's `Allowed tools` menu, loaded once a call in the chat ran on a grant or made one; a menu that fails to load is left out, never the header. */
export function GrantsEntry({ sessionId }: { sessionId: string }) {
  const shown = useSessionStore((state) => hasGrantedCalls(sessionId, state));
  if (!shown) return null;
  return (
    <ErrorBoundary fallback={() => null}>
      <Suspense fallback={null}>
        <GrantsMenu sessionId={sessionId} />
      </Suspense>
    </ErrorBoundary>
  );
}
