import { memo } from "react";
import type { Session } from "../../protocol/schemas";
import { useMessages } from "../../i18n/i18n";
import { useSessionStore } from "../../store/react";
import { selectSessionBadge } from "../../store/selectors";
import { sessionsMessages } from "./messages";

/** One session in the sidebar: its title, an agent badge when an outside agent asks through it and, while something is pending, a badge. */
export const SessionListItem = memo(function SessionListItem({
  session,
  active,
  href,
  onSelect,
}: {
  session: Session;
  active: boolean;
  href: string;
  onSelect: (sessionId: string) => void;
}) {
  const t = useMessages(sessionsMessages);
  const badge = useSessionStore(selectSessionBadge(session.id));
  return (
    <li className="session-item">
      <a
        className="session-item__link"
        href={href}
        aria-current={active ? "page" : undefined}
        onClick={(event) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          onSelect(session.id);
        }}
      >
        <span className="session-item__title" dir="auto">{session.title.trim() || t("untitled")}</span>
        {session.agent && (
          <>
            {" "}
            <span className="session-item__agent">{t("agentBadge")}</span>
          </>
        )}
        {badge && <span className="session-item__badge">{badge === "plan-review" ? t("planBadge") : t("waitingBadge")}</span>}
      </a>
    </li>
  );
});
