import { useLocale, useCopy } from "../i18n/i18n";
import { demoCopy } from "./copy";
import { STORIES } from "./stories";

/** The stories as deep links: `/demo#<id>` opens one directly. */
export function StoryList({ currentId }: { currentId: string }) {
  const t = useCopy(demoCopy);
  const { locale } = useLocale();
  return (
    <nav className="demo__stories" aria-labelledby="demo-stories-heading">
      <h2 id="demo-stories-heading" className="demo__section-title">
        {t("storiesHeading")}
      </h2>
      <ul className="demo__story-list">
        {STORIES.map((story) => (
          <li key={story.id}>
            <a className="demo__story-link" href={`#${story.id}`} aria-current={story.id === currentId ? "page" : undefined}>
              <span className="demo__story-title">{story.title[locale]}</span>
              <span className="demo__story-description">{story.description[locale]}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
