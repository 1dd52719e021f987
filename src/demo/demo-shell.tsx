import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useLocale, useCopy } from "../i18n/i18n";
import { startTheme, useTheme } from "../ui/theme";
import { DemoControls, type PreviewWidth } from "./demo-controls";
import { frameUrl, postToFrame, readFrameMessage, type FrameSettings, type HostAction } from "./frame-messages";
import { demoCopy } from "./copy";
import { RespondLog, type LogEntry } from "./respond-log";
import { StoryList } from "./story-list";
import { PLAYGROUND_EXAMPLE, readPlayground } from "./playground";
import { storyFromHash, type DemoReply } from "./stories";

const PREVIEW_WIDTHS: Record<PreviewWidth, string> = { phone: "360px", tablet: "768px", desktop: "100%" };

/** The designers' page: story list, controls, the preview frame and the log of sent bodies. */
export function DemoShell() {
  const t = useCopy(demoCopy);
  const { locale, setLocale } = useLocale();
  const [theme, setTheme] = useTheme();
  const [story, setStory] = useState(() => storyFromHash(window.location.hash));
  const [reply, setReply] = useState<DemoReply | null>(null);
  const [width, setWidth] = useState<PreviewWidth>("desktop");
  const [entries, setEntries] = useState<LogEntry[]>([]);
  const [args, setArgs] = useState(() => new URLSearchParams(window.location.search).get("args") ?? PLAYGROUND_EXAMPLE);
  const frameRef = useRef<HTMLIFrameElement>(null);

  const settings = useMemo<FrameSettings>(
    () => ({ storyId: story.id, locale, theme, reply, phone: width === "phone", ...(story.playground ? { args } : {}) }),
    [story.id, story.playground, locale, theme, reply, width, args],
  );

  useEffect(() => {
    if (!story.playground) return;
    const url = new URL(window.location.href);
    url.searchParams.set("args", args);
    window.history.replaceState(null, "", url);
  }, [story.playground, args]);
  const settingsRef = useRef(settings);
  const [src] = useState(() => frameUrl(settings));

  useEffect(() => startTheme(), []);

  useEffect(() => {
    document.documentElement.lang = locale;
    document.title = `${story.title[locale]} · ${t("pageTitle")}`;
  }, [locale, story, t]);

  useEffect(() => {
    const onHashChange = () => setStory(storyFromHash(window.location.hash));
    window.addEventListener("hashchange", onHashChange);
    return () => window.removeEventListener("hashchange", onHashChange);
  }, []);

  useEffect(() => {
    settingsRef.current = settings;
    const target = frameRef.current?.contentWindow;
    if (target) postToFrame(target, { type: "settings", settings });
  }, [settings]);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const target = frameRef.current?.contentWindow;
      if (!target || event.source !== target) return;
      const message = readFrameMessage(event);
      if (!message) return;
      switch (message.type) {
        case "ready":
          postToFrame(target, { type: "settings", settings: settingsRef.current });
          break;
        case "sent":
          setEntries((current) => [
            { id: message.id, storyId: message.storyId, body: message.body, result: { kind: "pending" } },
            ...current,
          ]);
          break;
        case "settled":
          setEntries((current) => current.map((entry) => (entry.id === message.id ? { ...entry, result: message.result } : entry)));
          break;
        default:
          message satisfies never;
      }
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, []);

  const clearLog = useCallback(() => setEntries([]), []);
  const hostAction = useCallback((action: HostAction) => {
    const target = frameRef.current?.contentWindow;
    if (target) postToFrame(target, { type: "host", action });
  }, []);

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
          reply={reply ?? story.reply}
          onReply={setReply}
          onHostAction={hostAction}
        />
      </header>
      <StoryList currentId={story.id} />
      <main className="demo__main">
        <div className="demo__stage">
          <iframe
            ref={frameRef}
            className="demo__frame"
            style={{ width: PREVIEW_WIDTHS[width] }}
            src={src}
            title={t("previewTitle", { title: story.title[locale] })}
            data-width={width}
          />
        </div>
        {story.playground && <PlaygroundInput args={args} onArgs={setArgs} />}
        <RespondLog entries={entries} onClear={clearLog} />
      </main>
    </div>
  );
}

/** The playground's editor: the pasted arguments, and how many problems they have. */
function PlaygroundInput({ args, onArgs }: { args: string; onArgs: (args: string) => void }) {
  const t = useCopy(demoCopy);
  const result = readPlayground(args);
  return (
    <section className="demo__playground" aria-labelledby="demo-playground-label">
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
        aria-describedby={result.kind === "errors" ? "demo-playground-status" : undefined}
      />
      <p id="demo-playground-status" className="demo__playground-status" role="status">
        {result.kind === "errors" ? t("playgroundInvalid", { count: result.errors.length }) : ""}
      </p>
    </section>
  );
}
