import { useEffect, useId, useRef, type ReactNode, type RefObject } from "react";
import { LOCALES, type Locale } from "../../i18n/locale";
import { useLocale, useMessages } from "../../i18n/i18n";
import { useSessionStore } from "../../store/react";
import { selectHasMoreSessions, selectSessions } from "../../store/selectors";
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
  /** Asks for the list's next page; called when its end scrolls into view or `Show more chats` is pressed. */
  onLoadMore?: () => void;
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
/** How far below the visible end of the list the next page is already requested. */
const LOAD_MORE_MARGIN_PX = 300;

function LoadMore({ onLoadMore, listRef }: { onLoadMore: () => void; listRef: RefObject<HTMLUListElement | null> }) {
  const t = useMessages(sessionsMessages);
  const ref = useRef<HTMLLIElement>(null);
  const latest = useRef(onLoadMore);
  useEffect(() => {
    latest.current = onLoadMore;
  });
  useEffect(() => {
    const sentinel = ref.current;
    if (!sentinel || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) latest.current();
    }, { root: listRef.current, rootMargin: `0px 0px ${LOAD_MORE_MARGIN_PX}px 0px` });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [listRef]);
  return (
    <li ref={ref} className="sidebar__more">
      <Button variant="ghost" onClick={() => latest.current()}>
        {t("showMore")}
      </Button>
    </li>
  );
}

export function Sidebar({ id, activeSessionId, sessionHref, onSelect, onNewChat, onLoadMore, footer }: SidebarProps) {
  const t = useMessages(sessionsMessages);
  const sessions = useSessionStore(selectSessions);
  const hasMore = useSessionStore(selectHasMoreSessions);
  const listRef = useRef<HTMLUListElement>(null);
  return (
    <nav id={id} className="sidebar" aria-label={t("navLabel")}>
      <Button variant="primary" className="sidebar__new" onClick={onNewChat}>
        {t("newChat")}
      </Button>
      {sessions.length === 0 ? (
        <p className="sidebar__empty">{t("noSessions")}</p>
      ) : (
        <ul className="sidebar__list" ref={listRef}>
          {sessions.map((session) => (
            <SessionListItem key={session.id} session={session} active={session.id === activeSessionId} href={sessionHref(session.id)} onSelect={onSelect} />
          ))}
          {hasMore && onLoadMore && <LoadMore onLoadMore={onLoadMore} listRef={listRef} />}
        </ul>
      )}
      <LocaleSwitch />
      {footer}
    </nav>
  );
}
