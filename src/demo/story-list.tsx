import { useId, useState } from "react";
import { useLocale, useCopy } from "../i18n/i18n";
import type { Locale } from "../i18n/locale";
import { demoCopy } from "./copy";
import { GROUPS, STORIES, type Story, type StoryGroup } from "./stories";

export const GROUP_KEYS = {
  questions: "groupQuestions",
  forms: "groupForms",
  approvals: "groupApprovals",
  plans: "groupPlans",
  agents: "groupAgents",
  faults: "groupFaults",
  chat: "groupChat",
} as const satisfies Record<StoryGroup, string>;

/** Whether a story matches a search: every word is in its id, title or description, in any case. */
export function matchesSearch(story: Story, locale: Locale, query: string): boolean {
  const haystack = `${story.id} ${story.title[locale]} ${story.description[locale]} ${story.title.en}`.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== "")
    .every((word) => haystack.includes(word));
}

/** The stories as deep links in their groups, with a search and groups that fold: `/demo#<id>` opens one directly. */
export function StoryList({ currentId }: { currentId: string | null }) {
  const t = useCopy(demoCopy);
  const { locale } = useLocale();
  const [query, setQuery] = useState("");
  const [folded, setFolded] = useState<ReadonlySet<StoryGroup>>(new Set());
  const searchId = useId();
  const listId = useId();
  const searching = query.trim() !== "";
  const groups = GROUPS.map((group) => ({ group, stories: STORIES.filter((story) => story.group === group && matchesSearch(story, locale, query)) })).filter(
    ({ stories }) => stories.length > 0,
  );
  const toggle = (group: StoryGroup) =>
    setFolded((current) => {
      const next = new Set(current);
      if (!next.delete(group)) next.add(group);
      return next;
    });

  return (
    <nav className="demo__stories" aria-labelledby="demo-stories-heading">
      <h2 id="demo-stories-heading" className="demo__section-title">
        {t("storiesHeading")}
      </h2>
      <label htmlFor={searchId} className="demo__control-label">
        {t("searchLabel")}
      </label>
      <input id={searchId} type="search" className="demo__search" value={query} onChange={(event) => setQuery(event.target.value)} autoComplete="off" />
      {groups.length === 0 && (
        <p className="demo__search-empty" role="status">
          {t("searchEmpty", { query: query.trim() })}
        </p>
      )}
      {groups.map(({ group, stories }) => {
        const open = searching || !folded.has(group);
        const id = `${listId}-${group}`;
        return (
          <section key={group} className="demo__group" data-group={group}>
            <h3 className="demo__group-heading">
              <button type="button" className="demo__group-toggle" aria-expanded={open} aria-controls={id} onClick={() => toggle(group)} disabled={searching}>
                <span className="demo__group-mark" aria-hidden="true">
                  {open ? "▾" : "▸"}
                </span>
                {t("groupCount", { group: t(GROUP_KEYS[group]), count: stories.length })}
              </button>
            </h3>
            <ul id={id} className="demo__story-list" hidden={!open}>
              {stories.map((story) => (
                <li key={story.id}>
                  <a className="demo__story-link" href={`#${story.id}`} aria-current={story.id === currentId ? "page" : undefined}>
                    <span className="demo__story-title">{story.title[locale]}</span>
                    <span className="demo__story-description">{story.description[locale]}</span>
                  </a>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </nav>
  );
}
