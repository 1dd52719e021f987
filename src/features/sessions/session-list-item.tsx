import { memo, useRef, useState } from "react";
import { shownTitle } from "../../protocol/chat-title";
import type { Session } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { useSessionStore } from "../../store/react";
import { selectSessionBadge } from "../../store/selectors";
import { LazyInlineEdit as InlineEdit } from "../../ui/lazy-inline-edit";
import { RelativeTime } from "../../ui/relative-time";
import { sessionsCopy } from "./copy";
import { RowMenu, type RowMenuItem } from "./row-menu";

/** The longest title the host accepts. */
export const TITLE_MAX_CHARS = 200;

export interface SessionItemActions {
  onSelect: (sessionId: string) => void;
  /** Renames the session; rejects with an error whose message says, translated, what went wrong. */
  onRename?: (sessionId: string, title: string) => Promise<void>;
  onDelete?: (sessionId: string) => void;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Where the keyboard goes once a row is deleted from its menu: the next chat in the list, else the one before. */
function neighbourOf(row: HTMLElement | null): HTMLElement | undefined {
  const links = [...(row?.closest("nav")?.querySelectorAll<HTMLElement>(".session-item__link") ?? [])];
  const at = links.findIndex((link) => row?.contains(link));
  return links[at + 1] ?? links[at - 1];
}

/**
 * One session in the sidebar: its title, an agent badge when an outside agent asks through it (an ACP agent by its title,
 * `agentTitle`), a badge while something is pending (the badges on a line under the title, so the title keeps the row's
 * width), when it last changed, and Rename / Delete behind "…".
 */
export const SessionListItem = memo(function SessionListItem({
  session,
  active,
  href,
  onSelect,
  onRename,
  onDelete,
  agentTitle,
}: SessionItemActions & { session: Session; active: boolean; href: string; agentTitle?: string }) {
  const t = useCopy(sessionsCopy);
  const badge = useSessionStore(selectSessionBadge(session.id));
  const [editing, setEditing] = useState(false);
  const rowRef = useRef<HTMLLIElement>(null);
  const title = shownTitle(session.title, t("untitled"), t("newChat"));
  const tagged = Boolean(session.agent || badge);
  const actions: RowMenuItem[] = [
    ...(onRename ? [{ label: t("rename"), name: t("renameChat", { title }), onChoose: () => setEditing(true) }] : []),
    ...(onDelete
      ? [
          {
            label: t("delete"),
            name: t("deleteChat", { title }),
            onChoose: () => {
              // The open chat's deletion moves the page on, which places the focus itself.
              const next = active ? undefined : neighbourOf(rowRef.current);
              onDelete(session.id);
              next?.focus();
            },
          },
        ]
      : []),
  ];
  return (
    <li ref={rowRef} className="session-item" data-active={active ? "true" : undefined}>
      {editing && onRename ? (
        <InlineEdit
          className="session-item__edit"
          initial={session.title}
          label={t("titleLabel")}
          maxLength={TITLE_MAX_CHARS}
          describe={errorText}
          onSave={(next) => onRename(session.id, next)}
          onDone={() => setEditing(false)}
        />
      ) : (
        <a
          className={tagged ? "session-item__link session-item__link--tagged" : "session-item__link"}
          href={href}
          aria-current={active ? "page" : undefined}
          onClick={(event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
            event.preventDefault();
            onSelect(session.id);
          }}
        >
          <span className="session-item__title" dir="auto">
            {title}
          </span>
          {/* Spaces between the parts, so the link's name reads as words wherever its layout is not known. */}
          {tagged && " "}
          {tagged && (
            <span className="session-item__tags">
              {session.agent && (
                <span className="session-item__agent" dir="auto">
                  {session.agent.kind === "acp-agent" ? (agentTitle ?? session.agent.name) : t("agentBadge")}
                </span>
              )}
              {session.agent && badge && " "}
              {badge && <span className="session-item__badge">{badge === "plan-review" ? t("planBadge") : t("waitingBadge")}</span>}
              {/* Shown here, at the end of the badges' line, so the title has the row's whole width; read from after the link. */}
              <span className="session-item__tags-time" aria-hidden="true">
                <RelativeTime iso={session.updatedAt} className="session-item__time" narrow />
              </span>
            </span>
          )}
        </a>
      )}
      {/* Shown in the locale's short form ("4m ago"), so the row's title keeps most of its width; read in full. */}
      {!editing && (tagged ? <RelativeTime iso={session.updatedAt} className="ui-visually-hidden" /> : <RelativeTime iso={session.updatedAt} className="session-item__time" narrow />)}
      {!editing && actions.length > 0 && <RowMenu title={title} items={actions} />}
    </li>
  );
});
