import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { useLocale, useCopy } from "../i18n/i18n";
import { startTheme, useTheme, type ThemeChoice } from "../ui/theme";
import { DemoControls, type PreviewWidth } from "./demo-controls";
import { StoryKnobs } from "./demo-knobs";
import { frameUrl, postToFrame, readFrameMessage, type FrameMessage, type FrameSettings, type HostAction } from "./frame-messages";
import { demoCopy } from "./copy";
import { RespondLog, type LogEntry } from "./respond-log";
import { GROUP_KEYS, StoryList } from "./story-list";
import { isPlaygroundInput, PLAYGROUND_EXAMPLES, PLAYGROUND_INPUTS, readPlayground, type PlaygroundInput, type PlaygroundResult } from "./playground";
import { decodeHash, STORIES, storyById, type DemoReply, type Story } from "./stories";
import { knobPartsOf, storyParts } from "./story-args";
import { problemCount, UnknownStoryNotice } from "./story-frame";
import { COMPARES, readLook, readView, sharedLink, withoutLook, writeView, type Compare } from "./shell-address";

const PREVIEW_WIDTHS: Record<PreviewWidth, string> = { phone: "360px", tablet: "768px", desktop: "100%" };

const COMPARE_KEYS = { off: "compareOff", widths: "compareWidths", themes: "compareThemes" } as const satisfies Record<Compare, string>;

const INPUT_KEYS = {
  questions: "playgroundInputQuestions",
  form: "playgroundInputForm",
  approval: "playgroundInputApproval",
} as const satisfies Record<PlaygroundInput, string>;

/** What the workshop keeps in a history entry. */
interface EntryState {
  edit: string | null;
}

/** The edit the current history entry was left with; none for an entry the workshop has not written (a story opened from the list). */
function editOfEntry(): string | null {
  const state: unknown = window.history.state;
  const edit = typeof state === "object" && state !== null ? (state as Partial<EntryState>).edit : undefined;
  return typeof edit === "string" ? edit : null;
}

/** The story a hash names; the first for no hash at all; null for an id no story has. */
function storyOfHash(hash: string): Story | null {
  const id = decodeHash(hash);
  return id === "" ? STORIES[0]! : storyById(id);
}

interface PreviewSpec {
  key: string;
  width: PreviewWidth;
  theme: ThemeChoice;
}

function previewsOf(compare: Compare, width: PreviewWidth, theme: ThemeChoice): PreviewSpec[] {
  switch (compare) {
    case "off":
      return [{ key: "main", width, theme }];
    case "widths":
      return [
        { key: "phone", width: "phone", theme },
        { key: "desktop", width: "desktop", theme },
      ];
    case "themes":
      return [
        { key: "light", width, theme: "light" },
        { key: "dark", width, theme: "dark" },
      ];
    default:
      return compare satisfies never;
  }
}

/** The designers' page: story list, controls, the preview frame and the log of sent bodies. */
export function DemoShell() {
  const t = useCopy(demoCopy);
  const { locale, setLocale } = useLocale();
  const [theme, setTheme] = useTheme();
  const [story, setStory] = useState(() => storyOfHash(window.location.hash));
  const [missingId, setMissingId] = useState(() => decodeHash(window.location.hash) ?? window.location.hash.slice(1));
  const initial = useMemo(() => new URLSearchParams(window.location.search), []);
  const [opened] = useState(() => readView(initial));
  const [reply, setReply] = useState<DemoReply | null>(opened.reply);
  const [width, setWidth] = useState<PreviewWidth>(opened.width);
  const [compare, setCompare] = useState<Compare>(opened.compare);
  /** Counts Back and Forward, so the address is written again for the entry they land on. */
  const [moves, setMoves] = useState(0);
  const [entries, setEntries] = useState<LogEntry[]>([]);
  const [input, setInput] = useState<PlaygroundInput>(() => {
    const named = initial.get("input");
    return isPlaygroundInput(named) ? named : "questions";
  });
  const [args, setArgs] = useState(() => initial.get("args") ?? PLAYGROUND_EXAMPLES[input]);
  const [edit, setEdit] = useState(() => initial.get("edit"));
  const playground = story?.scene === undefined && story?.playground === true;

  const base = useMemo<Omit<FrameSettings, "theme" | "phone">>(
    () => ({
      storyId: story?.id ?? "",
      locale,
      reply,
      ...(playground ? { args, input } : {}),
      ...(story && !playground && edit !== null ? { edit } : {}),
    }),
    [story, playground, locale, reply, args, input, edit],
  );
  const previews = previewsOf(compare, width, theme);
  const mainSettings: FrameSettings = { ...base, theme, phone: width === "phone" };

  // A shared link's theme and language are applied as if chosen here (and remembered); the address drops them below.
  useEffect(() => {
    const look = readLook(initial);
    if (look.theme) setTheme(look.theme);
    if (look.locale) setLocale(look.locale);
  }, [initial, setTheme, setLocale]);

  useEffect(() => {
    const url = withoutLook(new URL(window.location.href));
    writeView(url, { width, compare, reply });
    for (const key of ["args", "input", "edit"]) url.searchParams.delete(key);
    if (playground) {
      url.searchParams.set("input", input);
      url.searchParams.set("args", args);
    } else if (edit !== null) url.searchParams.set("edit", edit);
    // The history entry keeps its story's edit, so Back and Forward bring the story back as it was edited there.
    if (url.href !== window.location.href || editOfEntry() !== edit) window.history.replaceState({ edit } satisfies EntryState, "", url);
  }, [playground, args, input, edit, width, compare, reply, moves]);

  useEffect(() => startTheme(), []);

  useEffect(() => {
    document.documentElement.lang = locale;
    document.title = `${story ? story.title[locale] : missingId} · ${t("pageTitle")}`;
  }, [locale, story, missingId, t]);

  useEffect(() => {
    const onMove = () => {
      setStory(storyOfHash(window.location.hash));
      setMissingId(decodeHash(window.location.hash) ?? window.location.hash.slice(1));
      // A story opened from the list starts unedited (its entry is new); one come back to by Back or Forward as it was left.
      setEdit(editOfEntry());
      setMoves((count) => count + 1);
    };
    // Back to an entry whose address differs in more than its hash (an edit written into it) fires popstate, not hashchange.
    window.addEventListener("hashchange", onMove);
    window.addEventListener("popstate", onMove);
    return () => {
      window.removeEventListener("hashchange", onMove);
      window.removeEventListener("popstate", onMove);
    };
  }, []);

  const onFrameMessage = useCallback((message: FrameMessage) => {
    if (message.type === "sent") setEntries((current) => [{ id: message.id, storyId: message.storyId, body: message.body, result: { kind: "pending" } }, ...current]);
    if (message.type === "settled") setEntries((current) => current.map((entry) => (entry.id === message.id ? { ...entry, result: message.result } : entry)));
  }, []);

  const [frames] = useState(() => new Map<string, HTMLIFrameElement>());
  const clearLog = useCallback(() => setEntries([]), []);
  const hostAction = useCallback((action: HostAction) => {
    for (const frame of frames.values()) if (frame.contentWindow) postToFrame(frame.contentWindow, { type: "host", action });
  }, [frames]);

  /** What the Controls edit: the story's arguments, or the address's edit of them (one breaking a rule too: the preview lists its problems), or the problems of an edit they cannot show. */
  const knobs = useMemo<PlaygroundResult | null>(() => {
    if (!story || story.scene !== undefined || story.playground) return null;
    return edit === null ? { kind: "request", parts: storyParts(story) } : knobPartsOf(edit);
  }, [story, edit]);

  return (
    <div className="demo">
      <header className="demo__header">
        <h1 className="demo__title">{t("pageTitle")}</h1>
        <DemoControls
          locale={locale}
          onLocale={setLocale}
          theme={theme}
          onTheme={setTheme}
          width={width}
          onWidth={setWidth}
          reply={reply}
          storyReply={(story?.scene === undefined ? story?.reply : undefined) ?? "accept"}
          onReply={setReply}
          onHostAction={hostAction}
        />
      </header>
      <StoryList currentId={story?.id ?? null} />
      <main className="demo__main">
        {story ? (
          <>
            <StoryToolbar key={story.id} story={story} fullPage={frameUrl(mainSettings)} compare={compare} onCompare={setCompare} />
            <div className="demo__stage" data-compare={compare}>
              {previews.map((spec) => (
                <PreviewFrame
                  key={spec.key}
                  spec={spec}
                  settings={{ ...base, theme: spec.theme, phone: spec.width === "phone" }}
                  title={compare === "off" ? t("previewTitle", { title: story.title[locale] }) : `${t("previewTitle", { title: story.title[locale] })} (${spec.key})`}
                  frames={frames}
                  onMessage={onFrameMessage}
                />
              ))}
            </div>
            <div className="demo__panels">
              <DocsPane story={story} />
              {playground ? (
                <PlaygroundEditor input={input} args={args} onInput={(next) => (setInput(next), setArgs(PLAYGROUND_EXAMPLES[next]))} onArgs={setArgs} />
              ) : (
                knobs && <StoryKnobs key={story.id} knobs={knobs} edited={edit !== null} onChange={(next) => setEdit(JSON.stringify(next))} onReset={() => setEdit(null)} />
              )}
            </div>
          </>
        ) : (
          <div className="demo__stage demo__stage--notice">
            <UnknownStoryNotice id={missingId} locale={locale} />
          </div>
        )}
        <RespondLog entries={entries} onClear={clearLog} />
      </main>
    </div>
  );
}

interface PreviewFrameProps {
  spec: PreviewSpec;
  settings: FrameSettings;
  title: string;
  /** Where the page finds every preview, to send the fake host's actions to each. */
  frames: Map<string, HTMLIFrameElement>;
  onMessage: (message: FrameMessage) => void;
}

/** One preview frame: created with its settings in its address, then kept up to date by message. */
function PreviewFrame({ spec, settings, title, frames, onMessage }: PreviewFrameProps) {
  const ref = useRef<HTMLIFrameElement>(null);
  const [src] = useState(() => frameUrl(settings));
  const settingsRef = useRef(settings);

  useEffect(() => {
    const frame = ref.current;
    if (!frame) return;
    frames.set(spec.key, frame);
    return () => {
      frames.delete(spec.key);
    };
  }, [frames, spec.key]);

  useEffect(() => {
    settingsRef.current = settings;
    const target = ref.current?.contentWindow;
    if (target) postToFrame(target, { type: "settings", settings });
  }, [settings]);

  useEffect(() => {
    const listener = (event: MessageEvent) => {
      const target = ref.current?.contentWindow;
      if (!target || event.source !== target) return;
      const message = readFrameMessage(event);
      if (!message) return;
      if (message.type === "ready") postToFrame(target, { type: "settings", settings: settingsRef.current });
      else onMessage(message);
    };
    window.addEventListener("message", listener);
    return () => window.removeEventListener("message", listener);
  }, [onMessage]);

  return <iframe ref={ref} className="demo__frame" style={{ width: PREVIEW_WIDTHS[spec.width] }} src={src} title={title} data-width={spec.width} data-preview={spec.key} />;
}

type CopyState = "idle" | "copied" | "fallback";

/**
 * The current story's name and what can be done with it: open it alone, copy its link (the story, its edit, the preview's
 * width, side by side, the host's reply, the theme and the language), compare it side by side.
 */
function StoryToolbar({ story, fullPage, compare, onCompare }: { story: Story; fullPage: string; compare: Compare; onCompare: (compare: Compare) => void }) {
  const t = useCopy(demoCopy);
  const { locale } = useLocale();
  const [theme] = useTheme();
  const [copy, setCopy] = useState<CopyState>("idle");
  const linkRef = useRef<HTMLInputElement>(null);
  const compareId = useId();
  const [link, setLink] = useState("");

  const onCopy = async () => {
    const href = sharedLink(window.location.href, theme, locale);
    setLink(href);
    try {
      if (!navigator.clipboard?.writeText) throw new Error("no clipboard");
      await navigator.clipboard.writeText(href);
      setCopy("copied");
    } catch (error) {
      console.warn("clipboard write failed; showing the link to copy by hand", error);
      setCopy("fallback");
    }
  };

  useEffect(() => {
    if (copy === "fallback") linkRef.current?.select();
  }, [copy]);

  return (
    <div className="demo__toolbar">
      <h2 className="demo__story-heading">{story.title[locale]}</h2>
      <a className="demo__button demo__link-button" href={fullPage} target="_blank" rel="noopener">
        {t("openFullPage")}
      </a>
      <button type="button" className="demo__button" onClick={() => void onCopy()}>
        {t("copyLink")}
      </button>
      <label className="demo__compare" htmlFor={compareId}>
        <span className="demo__control-label">{t("compare")}</span>
        <select id={compareId} value={compare} onChange={(event) => onCompare(event.target.value as Compare)}>
          {COMPARES.map((option) => (
            <option key={option} value={option}>
              {t(COMPARE_KEYS[option])}
            </option>
          ))}
        </select>
      </label>
      <p className="demo__toolbar-status" role="status">
        {copy === "copied" ? t("linkCopied") : copy === "fallback" ? t("linkFallback") : ""}
      </p>
      {copy === "fallback" && <input ref={linkRef} className="demo__knob-field demo__link-field" readOnly value={link} aria-label={t("linkLabel")} />}
    </div>
  );
}

/** What the story shows and the rules of docs/protocol.md it illustrates. */
function DocsPane({ story }: { story: Story }) {
  const t = useCopy(demoCopy);
  const { locale } = useLocale();
  return (
    <section className="demo__docs" aria-labelledby="demo-docs-heading">
      <h2 id="demo-docs-heading" className="demo__section-title">
        {t("docsHeading")}
      </h2>
      <p className="demo__docs-text">{story.description[locale]}</p>
      <p className="demo__docs-meta">
        {t("docsGroup", { group: t(GROUP_KEYS[story.group]) })} · <code>#{story.id}</code>
      </p>
      <p className="demo__docs-meta">
        {t("docsRules")}{" "}
        {story.rules.map((rule, index) => (
          <span key={rule}>
            {index > 0 && ", "}
            <code>[{rule}]</code>
          </span>
        ))}
      </p>
    </section>
  );
}

/** The playground's editor: what kind of input, the pasted JSON, and how many problems it has. */
function PlaygroundEditor({ input, args, onInput, onArgs }: { input: PlaygroundInput; args: string; onInput: (input: PlaygroundInput) => void; onArgs: (args: string) => void }) {
  const t = useCopy(demoCopy);
  const result = readPlayground(args, input);
  return (
    <section className="demo__playground" aria-labelledby="demo-playground-label">
      <fieldset className="demo__segmented">
        <legend className="demo__control-label">{t("playgroundInput")}</legend>
        <div className="demo__segments">
          {PLAYGROUND_INPUTS.map((option) => (
            <label key={option} className="demo__segment">
              <input type="radio" name="demo-playground-input" value={option} checked={input === option} onChange={() => onInput(option)} />
              <span>{t(INPUT_KEYS[option])}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <label id="demo-playground-label" htmlFor="demo-playground-args" className="demo__section-title">
        {t("playgroundLabel")}
      </label>
      <p className="demo__playground-hint">{t("playgroundHint")}</p>
      <textarea
        id="demo-playground-args"
        className="demo__playground-args"
        spellCheck={false}
        rows={8}
        value={args}
        onChange={(event) => onArgs(event.target.value)}
        aria-describedby="demo-playground-status"
      />
      <p id="demo-playground-status" className="demo__playground-status" role="status">
        {result.kind === "errors" ? problemCount(t, result.errors.length) : ""}
      </p>
    </section>
  );
}
