import { useId, type ReactNode } from "react";
import { LOCALES, type Locale } from "../../i18n/locale";
import { useLocale, useMessages } from "../../i18n/i18n";
import { useSessionStore } from "../../store/react";
import { selectSessions } from "../../store/selectors";
import { Button } from "../../ui/button";
import { sessionsMessages } from "./messages";
import { SessionListItem } from "./session-list-item";
import "./sidebar.css";

export interface SidebarProps {
  id?: string;
  activeSessionId: string | null;
  /** The link target of a session (so it can open in a new tab). */
  sessionHref: (sessionId: string) => string;
  onSelect: (sessionId: string) => void;
  onNewChat: () => void;
  /** Extra preferences shown under the language switch. */
  footer?: ReactNode;
}

function LocaleSwitch() {
  const t = useMessages(sessionsMessages);
  const { locale, setLocale } = useLocale();
  const id = useId();
  const names: Record<Locale, string> = { en: t("languageEnglish"), "zh-CN": t("languageChinese") };
  return (
    <div className="locale-switch">
      <label htmlFor={id}>{t("language")}</label>
      <select id={id} value={locale} onChange={(event) => setLocale(event.target.value as Locale)}>
        {LOCALES.map((option) => (
          <option key={option} value={option} lang={option}>
            {names[option]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The session list: `New chat`, every session newest first with its badge, and the language switch. */
export function Sidebar({ id, activeSessionId, sessionHref, onSelect, onNewChat, footer }: SidebarProps) {
  const t = useMessages(sessionsMessages);
  const sessions = useSessionStore(selectSessions);
  return (
    <nav id={id} className="sidebar" aria-label={t("navLabel")}>
      <Button variant="primary" className="sidebar__new" onClick={onNewChat}>
        {t("newChat")}
      </Button>
      {sessions.length === 0 ? (
        <p className="sidebar__empty">{t("noSessions")}</p>
      ) : (
        <ul className="sidebar__list">
          {sessions.map((session) => (
            <SessionListItem key={session.id} session={session} active={session.id === activeSessionId} href={sessionHref(session.id)} onSelect={onSelect} />
          ))}
        </ul>
      )}
      <LocaleSwitch />
      {footer}
    </nav>
  );
}
