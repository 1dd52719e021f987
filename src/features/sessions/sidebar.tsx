import { lazy, startTransition, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode, type RefObject } from "react";
import type { AgentsList } from "../../client/agents-api";
import type { Session } from "../../protocol/schemas";
import { LOCALES, type Locale } from "../../i18n/locale";
import { useLocale, useCopy } from "../../i18n/i18n";
import { shownTitle } from "../../protocol/chat-title";
import { useSessionStore } from "../../store/react";
import { selectHasMoreSessions, selectPendingRequests, selectSessions } from "../../store/selectors";
import type { SessionData } from "../../store/state";
import { Button } from "../../ui/button";
import { createImeGuard } from "../../ui/ime";
import { LabelledSelect } from "../../ui/labelled-select";
import { sessionsCopy } from "./copy";
import { SessionListItem, type SessionItemActions } from "./session-list-item";
import { groupSessions, type SessionGroupKey } from "./groups";
import "./sidebar.css";

export interface SidebarProps {
  id?: string;
  activeSessionId: string | null;
  /** The link target of a session (so it can open in a new tab). */
  sessionHref: (sessionId: string) => string;
  onSelect: (sessionId: string) => void;
  onNewChat: () => void;
  onRename?: SessionItemActions["onRename"];
  onDelete?: SessionItemActions["onDelete"];
  /** Asks for the list's next page; called when its end scrolls into view or `Show more chats` is pressed. */
  onLoadMore?: () => void;
  /** Searches titles and message text on the host; `before` is the cursor of a further page. Without it there is no search field. */
  onSearch?: (query: string, before?: string) => Promise<SearchPage>;
  /** The list could not be loaded (the app says why): an empty list then says so rather than that there are no chats. */
  listFailed?: boolean;
  /** Sessions to leave out (deleted, waiting for the undo to lapse). */
  hiddenSessionIds?: ReadonlySet<string>;
  /** Extra preferences shown under the language switch. */
  footer?: ReactNode;
  /** Closes the list where it is a drawer (narrow screens); shown as a Close button at its top. */
  onClose?: () => void;
  /** Lets the caller focus the Close button when the drawer opens. */
  closeRef?: RefObject<HTMLButtonElement | null>;
  /** The moment the day groups are read against; the clock by default. */
  now?: () => Date;
  /** The host's ACP agents; with at least one, New chat offers Parley's assistant or an agent in a workspace folder. */
  agents?: AgentsList | null;
  /** Settles once the host has said which agents it has (null when it could not): New chat pressed before `agents` is known waits for it, then acts on it. */
  agentsKnown?: Promise<AgentsList | null>;
  /** Creates a chat the agent runs in `cwd` and opens it; rejects with the host's message. */
  onNewAgentChat?: (agent: string, cwd: string) => Promise<void>;
  /** Asks the host again for the agents' states (when New chat's choice opens, and while one is starting). */
  onRefreshAgents?: () => void;
}

/** New chat's choice between the assistant and an agent, loaded on first use. */
const NewChatPicker = lazy(() => import("./new-chat-picker"));

const GROUP_KEYS = new Map<SessionGroupKey, "groupWaiting" | "groupToday" | "groupYesterday" | "groupEarlier">([
  ["waiting", "groupWaiting"],
  ["today", "groupToday"],
  ["yesterday", "groupYesterday"],
  ["earlier", "groupEarlier"],
]);

/** The listed chats that wait for an answer, as one string so the list re-renders only when that set changes. */
function selectWaitingIds(state: SessionData): string {
  return state.sessions
    .filter((session) => selectPendingRequests(session.id)(state).length > 0)
    .map((session) => session.id)
    .join("\u0000");
}

const readClock = () => new Date();

/** Renders again just after the next local midnight, when Today's chats become Yesterday's. */
function useNextDay(now: () => Date) {
  const [, rerender] = useState(0);
  const today = now().toDateString();
  useEffect(() => {
    const at = now();
    const timer = setTimeout(() => rerender((count) => count + 1), new Date(at.getFullYear(), at.getMonth(), at.getDate() + 1).getTime() - at.getTime() + 1000);
    return () => clearTimeout(timer);
  }, [today, now]);
}

function LocaleSwitch() {
  const t = useCopy(sessionsCopy);
  const { locale, setLocale } = useLocale();
  const names: Record<Locale, string> = { en: t("languageEnglish"), "zh-CN": t("languageChinese") };
  return <LabelledSelect label={t("language")} value={locale} choices={LOCALES.map((option) => ({ value: option, label: names[option], lang: option }))} onChange={setLocale} />;
}

const NONE_HIDDEN: ReadonlySet<string> = new Set();

/** How far below the visible end of the list the next page is already requested. */
const LOAD_MORE_MARGIN_PX = 300;

function LoadMore({ onLoadMore, listRef }: { onLoadMore: () => void; listRef: RefObject<HTMLUListElement | null> }) {
  const t = useCopy(sessionsCopy);
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

/** One page of search results from the host. */
export interface SearchPage {
  sessions: Session[];
  next: string | null;
}

/** How long typing must pause before the host is asked, in milliseconds; titles already loaded filter at once. */
export const SEARCH_DEBOUNCE_MS = 200;

type SearchState = { query: string; status: "loading" | "done" | "failed"; sessions: Session[]; next: string | null; error: string | null };

/** The loaded chats whose title, as the list shows it (新对话 for the host's "New chat" in Chinese), holds the query. */
function localMatches(sessions: readonly Session[], query: string, titleOf: (session: Session) => string): Session[] {
  const needle = query.toLocaleLowerCase();
  return sessions.filter((session) => titleOf(session).toLocaleLowerCase().includes(needle));
}

/** Host results in their order, then titles matched locally that the host has not (yet) returned; the store's copy of a session wins. */
function mergeResults(local: readonly Session[], remote: readonly Session[], byId: ReadonlyMap<string, Session>): Session[] {
  const seen = new Set<string>();
  const merged: Session[] = [];
  for (const session of [...remote, ...local]) {
    if (seen.has(session.id)) continue;
    seen.add(session.id);
    merged.push(byId.get(session.id) ?? session);
  }
  return merged;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

function useSearch(query: string, onSearch: SidebarProps["onSearch"]) {
  const [state, setState] = useState<SearchState | null>(null);
  // The host's matches of the search being typed, kept while the next keystroke's load: the list keeps its rows instead
  // of emptying and filling on every key, and the status says it is searching. A cleared search forgets them.
  // A row the host returns again unchanged keeps its object, so its memoised list item does not render again.
  const [held, setHeld] = useState<{ from: SearchState | null; sessions: Session[] }>(NOTHING_HELD);
  const trimmed = query.trim();
  if (trimmed === "" && held !== NOTHING_HELD) setHeld(NOTHING_HELD);
  if (state?.status === "done" && state.query === trimmed && held.from !== state) setHeld({ from: state, sessions: keepUnchanged(held.sessions, state.sessions) });
  useEffect(() => {
    if (trimmed === "" || !onSearch) return;
    let live = true;
    const timer = setTimeout(() => {
      setState({ query: trimmed, status: "loading", sessions: [], next: null, error: null });
      onSearch(trimmed).then(
        (page) => {
          // A page of results renders in a transition, so a key typed meanwhile interrupts it instead of waiting for it.
          if (live) startTransition(() => setState({ query: trimmed, status: "done", sessions: page.sessions, next: page.next, error: null }));
        },
        (error: unknown) => {
          if (live) setState({ query: trimmed, status: "failed", sessions: [], next: null, error: errorText(error) });
        },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [trimmed, onSearch]);
  const loadMore = useCallback(() => {
    if (!onSearch || !state || state.next === null || state.status !== "done") return;
    const { query: asked, next } = state;
    setState({ ...state, status: "loading" });
    onSearch(asked, next).then(
      (page) => setState((current) => (current?.query === asked ? { ...current, status: "done", sessions: [...current.sessions, ...page.sessions], next: page.next } : current)),
      (error: unknown) => setState((current) => (current?.query === asked ? { ...current, status: "failed", error: errorText(error) } : current)),
    );
  }, [onSearch, state]);
  const result = state !== null && state.query === trimmed ? state : null;
  return { result, shown: result?.status === "failed" ? result.sessions : held.sessions, loadMore };
}

const NOTHING_HELD = { from: null, sessions: [] };

/** `next`, with each session that `previous` holds unchanged replaced by the object `previous` holds. */
function keepUnchanged(previous: readonly Session[], next: readonly Session[]): Session[] {
  const before = new Map(previous.map((session) => [session.id, session]));
  return next.map((session) => {
    const old = before.get(session.id);
    return old !== undefined && JSON.stringify(old) === JSON.stringify(session) ? old : session;
  });
}

/**
 * New chat: with agents, it opens the choice of Parley's assistant or an agent; without, it starts an assistant chat.
 * Pressed before the host has said which agents it has, the press waits for the answer and then does the same.
 */
function useNewChat(activeSessionId: string | null, agents: AgentsList | null | undefined, agentsKnown: Promise<AgentsList | null> | undefined, onNewChat: () => void, onNewAgentChat: SidebarProps["onNewAgentChat"], onRefreshAgents: (() => void) | undefined) {
  const [picking, setPicking] = useState(false);
  const [waiting, setWaiting] = useState(false);
  const waitingRef = useRef(false);
  // A press made while another chat was open is dropped if the human opens a chat before the list comes.
  const activeRef = useRef(activeSessionId);
  useEffect(() => {
    activeRef.current = activeSessionId;
  }, [activeSessionId]);
  const newChatRef = useRef<HTMLButtonElement>(null);
  const offersAgents = agents !== undefined && agents !== null && agents.agents.length > 0 && onNewAgentChat !== undefined;
  const closePicker = useCallback((refocus: boolean) => {
    setPicking(false);
    if (refocus) newChatRef.current?.focus();
  }, []);
  const press = () => {
    if (offersAgents) {
      if (!picking) onRefreshAgents?.();
      setPicking(!picking);
    } else if (agents === null && agentsKnown !== undefined && onNewAgentChat !== undefined) {
      if (waitingRef.current) return;
      waitingRef.current = true;
      setWaiting(true);
      const pressedIn = activeRef.current;
      void agentsKnown.then((list) => {
        waitingRef.current = false;
        setWaiting(false);
        if (activeRef.current !== pressedIn) return;
        if (list !== null && list.agents.length > 0) setPicking(true);
        else onNewChat();
      });
    } else onNewChat();
  };
  return { picking, setPicking, offersAgents, newChatRef, closePicker, press, waiting };
}

/**
 * The search field: Escape clears it, unless that Escape only closed an IME's candidates. It keeps what is typed itself and
 * hands it on in a transition, so a key renders the field alone and the list follows in a render a next key interrupts.
 */
function SearchBox({ onChange }: { onChange: (query: string) => void }) {
  const t = useCopy(sessionsCopy);
  const searchId = useId();
  const [imeGuard] = useState(createImeGuard);
  const [value, setValue] = useState("");
  const change = (next: string) => {
    setValue(next);
    startTransition(() => onChange(next));
  };
  // The list filters by what the box hands on: a box that goes takes its search with it.
  useEffect(() => () => onChange(""), [onChange]);
  return (
    <div className="sidebar__search">
      <label htmlFor={searchId} className="ui-visually-hidden">
        {t("searchLabel")}
      </label>
      <input
        id={searchId}
        type="search"
        className="ui-field sidebar__search-input"
        placeholder={t("searchPlaceholder")}
        value={value}
        onChange={(event) => change(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape" && value !== "" && !imeGuard.isImeEscape(event.nativeEvent)) {
            event.preventDefault();
            change("");
          }
        }}
        onCompositionStart={imeGuard.onCompositionStart}
        onCompositionEnd={imeGuard.onCompositionEnd}
      />
    </div>
  );
}

/** The session list: `New chat`, search, chats waiting for an answer pinned on top, then Today, Yesterday and Earlier, and the language switch. */
export function Sidebar({ id, activeSessionId, sessionHref, onSelect, onNewChat, onLoadMore, onSearch, onRename, onDelete, listFailed = false, hiddenSessionIds = NONE_HIDDEN, footer, now = readClock, onClose, closeRef, agents, agentsKnown, onNewAgentChat, onRefreshAgents }: SidebarProps) {
  const t = useCopy(sessionsCopy);
  const { picking, setPicking, offersAgents, newChatRef, closePicker, press, waiting } = useNewChat(activeSessionId, agents, agentsKnown, onNewChat, onNewAgentChat, onRefreshAgents);
  const agentTitles = useMemo(() => new Map((agents?.agents ?? []).map((agent) => [agent.name, agent.title])), [agents]);
  const all = useSessionStore(selectSessions);
  const hasMore = useSessionStore(selectHasMoreSessions);
  const listRef = useRef<HTMLUListElement>(null);
  const [query, setQuery] = useState("");
  const { result, shown: found, loadMore: loadMoreResults } = useSearch(query, onSearch);
  const searching = query.trim() !== "";
  const waitingIds = useSessionStore(selectWaitingIds);
  useNextDay(now);
  const untitled = t("untitled");
  const fresh = t("newChat");

  const visible = useMemo(() => {
    const shown = hiddenSessionIds.size === 0 ? all : all.filter((session) => !hiddenSessionIds.has(session.id));
    if (!searching) return shown;
    const byId = new Map(shown.map((session) => [session.id, session]));
    const remote = found.filter((session) => !hiddenSessionIds.has(session.id));
    return mergeResults(localMatches(shown, query.trim(), (session) => shownTitle(session.title, untitled, fresh)), remote, byId);
  }, [all, hiddenSessionIds, searching, found, query, untitled, fresh]);

  const groupId = useId();
  const item = (session: Session) => (
    <SessionListItem
      key={session.id}
      session={session}
      active={session.id === activeSessionId}
      href={sessionHref(session.id)}
      onSelect={onSelect}
      onRename={onRename}
      onDelete={onDelete}
      agentTitle={session.agent?.kind === "acp-agent" ? (agentTitles.get(session.agent.name) ?? session.agent.name) : undefined}
    />
  );

  const more = searching ? (result?.status === "done" && result.next !== null ? loadMoreResults : undefined) : hasMore ? onLoadMore : undefined;
  const status = searching ? (result === null || result.status === "loading" ? t("searching") : result.status === "failed" ? t("searchFailed", { reason: result.error ?? "" }) : visible.length === 0 ? t("noMatches", { query: query.trim() }) : "") : "";

  return (
    <nav id={id} className="sidebar" aria-label={t("navLabel")}>
      <div className="sidebar__top">
        <Button
          ref={newChatRef}
          variant="primary"
          className="sidebar__new"
          aria-haspopup={offersAgents ? "dialog" : undefined}
          aria-expanded={offersAgents ? picking : undefined}
          aria-busy={waiting || undefined}
          onClick={press}
        >
          {t("newChat")}
        </Button>
        {onClose && (
          <Button ref={closeRef} variant="ghost" className="sidebar__close" aria-label={t("closeList")} onClick={onClose}>
            <span aria-hidden="true">✕</span>
          </Button>
        )}
        {offersAgents && picking && agents && onNewAgentChat && (
          <Suspense fallback={null}>
            <NewChatPicker
              agents={agents}
              anchorRef={newChatRef}
              onClose={closePicker}
              onRefresh={onRefreshAgents}
              onAssistant={() => {
                setPicking(false);
                onNewChat();
              }}
              onAgent={async (agent, cwd) => {
                await onNewAgentChat(agent, cwd);
                setPicking(false);
              }}
            />
          </Suspense>
        )}
      </div>
      {onSearch && <SearchBox onChange={setQuery} />}
      <p role="status" className="sidebar__status">
        {status}
      </p>
      {visible.length === 0 && !searching ? (
        <p className="sidebar__empty">{listFailed ? t("listFailed") : t("noSessions")}</p>
      ) : (
        <ul className="sidebar__list" ref={listRef}>
          {searching
            ? visible.map(item)
            : groupSessions(visible, new Set(waitingIds === "" ? [] : waitingIds.split("\u0000")), now()).map((group) => (
                <li key={group.key} className="sidebar__group" data-group={group.key}>
                  <h2 className="sidebar__group-title" id={`${groupId}-${group.key}`}>
                    {t(GROUP_KEYS.get(group.key)!)}
                  </h2>
                  <ul className="sidebar__group-list" aria-labelledby={`${groupId}-${group.key}`}>
                    {group.sessions.map(item)}
                  </ul>
                </li>
              ))}
          {more && <LoadMore key={searching ? `search:${query.trim()}` : "list"} onLoadMore={more} listRef={listRef} />}
        </ul>
      )}
      <LocaleSwitch />
      {footer}
    </nav>
  );
}
