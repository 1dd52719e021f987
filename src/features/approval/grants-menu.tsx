import { useEffect, useId, useRef, useState } from "react";
import type { Grant } from "../../protocol/schemas";
import { useOutsideDismiss } from "../../ui/use-outside-dismiss";
import { useCopy } from "../../i18n/i18n";
import { showHiddenCharacters } from "../../protocol/hidden-characters";
import { useSessionStore } from "../../store/react";
import { createGrantsApi } from "../../client/grants-api";
import { hasGrantedCalls } from "./grants-entry";
import { approvalCopy } from "./copy";
import "../../ui/composer-card.css";
import "./approval.css";

/** How the menu reads and revokes the chat's grants (src/client/grants-api.ts in the app). */
export interface GrantsSource {
  list(sessionId: string): Promise<Grant[]>;
  revoke(sessionId: string, grant: Pick<Grant, "server" | "tool">): Promise<void>;
}

type Listing = { kind: "loading" } | { kind: "loaded"; grants: Grant[] } | { kind: "failed"; message: string };

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The app's own grants route (src/client/grants-api.ts), made the first time a menu without a `source` needs it. */
let pageGrants: GrantsSource | undefined;

/** The chat header's `Allowed tools` disclosure: the grants of this chat, read when opened, each revocable; `source` defaults to the page's own host. */
export function GrantsMenu({ sessionId, source = (pageGrants ??= createGrantsApi()) }: { sessionId: string; source?: GrantsSource }) {
  const t = useCopy(approvalCopy);
  const shown = useSessionStore((state) => hasGrantedCalls(sessionId, state));
  const [open, setOpen] = useState(false);
  const [listing, setListing] = useState<Listing>({ kind: "loading" });
  const panelId = useId();
  const headingId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  // Open, it takes an Escape only while focus is in it (or nowhere), and closes once a press or the focus goes elsewhere
  // in the page (a question panel taking over), so the Escape that follows is for what has the focus.
  useOutsideDismiss(open, rootRef, setOpen);
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.isComposing) return;
      if (event.target !== document.body && !rootRef.current?.contains(event.target as Node | null)) return;
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener("keydown", onKeyDown, true);
    return () => document.removeEventListener("keydown", onKeyDown, true);
  }, [open]);

  useEffect(() => {
    if (!open) return;
    let current = true;
    source.list(sessionId).then(
      (grants) => current && setListing({ kind: "loaded", grants }),
      (error: unknown) => current && setListing({ kind: "failed", message: errorText(error) }),
    );
    return () => {
      current = false;
    };
  }, [open, sessionId, source]);

  if (!shown) return null;

  const toggle = () => {
    if (!open) setListing({ kind: "loading" });
    setOpen(!open);
  };

  const revoke = async (grant: Grant) => {
    try {
      await source.revoke(sessionId, grant);
      setListing((now) => (now.kind === "loaded" ? { kind: "loaded", grants: now.grants.filter((item) => item !== grant) } : now));
    } catch (error) {
      setListing({ kind: "failed", message: errorText(error) });
    }
  };

  return (
    <div className="grants-menu" ref={rootRef}>
      <button ref={toggleRef} type="button" className="grants-menu__toggle" aria-expanded={open} aria-controls={panelId} onClick={toggle}>
        {t("grantsButton")}
      </button>
      {open && (
        <section id={panelId} className="grants-menu__panel" role="region" aria-labelledby={headingId}>
          <h2 id={headingId} className="grants-menu__heading">
            {t("grantsHeading")}
          </h2>
          {listing.kind === "loading" && <p role="status">{t("grantsLoading")}</p>}
          {listing.kind === "failed" && <p role="alert">{t("grantsFailed", { message: listing.message })}</p>}
          {listing.kind === "loaded" && listing.grants.length === 0 && <p>{t("grantsEmpty")}</p>}
          {listing.kind === "loaded" && listing.grants.length > 0 && (
            <ul className="grants-menu__list">
              {listing.grants.map((grant) => (
                <li key={`${grant.server}\u0000${grant.tool}`} className="grants-menu__item">
                  <span className="grants-menu__name">
                    <bdi>{showHiddenCharacters(grant.server)}</bdi> · <bdi>{showHiddenCharacters(grant.tool)}</bdi>
                  </span>
                  <button type="button" className="composer-card__button" aria-label={t("revokeLabel", { server: showHiddenCharacters(grant.server), tool: showHiddenCharacters(grant.tool) })} onClick={() => void revoke(grant)}>
                    {t("revoke")}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
