import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { createSlotEntries } from "../app/question-entry";
import { Composer } from "../features/chat/composer";
import { ComposerSlot } from "../features/chat/composer-slot";
import "../features/chat/chat.css";
import { useLocale, useCopy } from "../i18n/i18n";
import type { PendingRequest } from "../protocol/schemas";
import { SessionStoreProvider, useSessionStore } from "../store/react";
import { selectFirstRetired, selectPendingRequests, selectTranscript } from "../store/selectors";
import { applyTheme } from "../ui/theme";
import { postToShell, readShellMessage, settingsFromLocation, type FrameSettings, type HostAction } from "./frame-messages";
import { demoCopy } from "./copy";
import { PLAYGROUND_EXAMPLES, readPlayground, type PlaygroundResult } from "./playground";
import { ChatStoryRun } from "./chat-frame";
import { decodeHash, DEMO_SESSION_ID, STORIES, storyById, type SlotStory, type Story } from "./stories";
import { readEdit } from "./story-args";
import { createRun, lastQuestionOutcome, playStory, pressWhenShown, requestsOf, typeReasonWhenShown } from "./story-run";

type HostListener = (action: HostAction) => void;

/** The preview document: one story through the real engine, store and composer slot, answered by the fake host. */
export function StoryFrame() {
  const { locale, setLocale } = useLocale();
  const [settings, setSettings] = useState<FrameSettings>(() => settingsFromLocation(window.location));
  const [round, setRound] = useState(0);
  const [hostListeners] = useState(() => new Set<HostListener>());
  const named = storyById(settings.storyId);
  const story = named ?? (settings.storyId === "" ? STORIES[0]! : null);
  const settingsRef = useRef(settings);
  useEffect(() => {
    settingsRef.current = settings;
  });

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.source !== window.parent) return;
      const message = readShellMessage(event);
      if (message?.type === "settings") setSettings(message.settings);
      if (message?.type === "host") for (const listener of hostListeners) listener(message.action);
    };
    const onHashChange = () => setSettings((current) => ({ ...current, storyId: decodeHash(window.location.hash) ?? "" }));
    window.addEventListener("message", onMessage);
    window.addEventListener("hashchange", onHashChange);
    postToShell({ type: "ready" });
    return () => {
      window.removeEventListener("message", onMessage);
      window.removeEventListener("hashchange", onHashChange);
    };
  }, [hostListeners]);

  useEffect(() => {
    applyTheme(settings.theme);
  }, [settings.theme]);

  useEffect(() => {
    if (settings.locale !== locale) setLocale(settings.locale);
    document.documentElement.lang = settings.locale;
  }, [settings.locale, locale, setLocale]);

  useEffect(() => {
    document.title = story ? story.title[locale] : settings.storyId;
  }, [story, settings.storyId, locale]);

  useEffect(() => {
    if (settings.phone) document.documentElement.dataset.preview = "phone";
    else delete document.documentElement.dataset.preview;
  }, [settings.phone]);

  const slotStory = story?.scene === undefined ? story : null;
  const input = settings.input ?? "questions";
  const args = slotStory?.playground ? (settings.args ?? PLAYGROUND_EXAMPLES[input]) : null;
  const edit = slotStory && !slotStory.playground ? (settings.edit ?? null) : null;
  const override = useMemo(() => (args !== null ? readPlayground(args, input) : edit !== null ? readEdit(edit) : null), [args, input, edit]);
  const requests = useMemo(() => (slotStory ? requestsOf(slotStory, override) : []), [slotStory, override]);
  const replay = useCallback(() => setRound((current) => current + 1), []);
  if (!story) return <UnknownStory id={settings.storyId} />;
  if (story.scene !== undefined) return <ChatStoryRun key={story.id} story={story} settingsRef={settingsRef} hostListeners={hostListeners} />;
  const runKey = `${story.id}:${round}:${requests.map((request) => request.rpcId).join(",")}`;

  return (
    <StoryRun key={runKey} story={story} requests={requests} playground={override} settingsRef={settingsRef} hostListeners={hostListeners} onReplay={replay} />
  );
}

interface StoryRunProps {
  story: SlotStory;
  requests: readonly PendingRequest[];
  playground: PlaygroundResult | null;
  settingsRef: { current: FrameSettings };
  /** Where the page's host controls reach the run's fake host. */
  hostListeners: Set<HostListener>;
  onReplay: () => void;
}

function StoryRun({ story, requests, playground, settingsRef, hostListeners, onReplay }: StoryRunProps) {
  const t = useCopy(demoCopy);
  const { locale } = useLocale();
  const [run] = useState(() => createRun(story, requests, settingsRef, t("typingText")));
  const slotRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    run.engine.start();
    run.engine.open(DEMO_SESSION_ID);
    return () => run.engine.close();
  }, [run]);

  useEffect(() => () => run.host.dispose(), [run]);

  useEffect(() => {
    let asked = 0;
    const listener: HostListener = (action) => {
      switch (action) {
        case "ask":
          asked += 1;
          for (const request of requests) run.host.ask({ ...request, rpcId: `${request.rpcId}-again-${asked}` });
          break;
        case "answer-elsewhere": {
          const first = selectDemoRequests(run.store.getState())[0];
          if (first) run.host.resolveElsewhere(first.rpcId, "answered");
          break;
        }
        case "restart":
          run.host.restart();
          break;
        default:
          action satisfies never;
      }
    };
    hostListeners.add(listener);
    return () => {
      hostListeners.delete(listener);
    };
  }, [hostListeners, requests, run]);

  useEffect(() => {
    if (story.arrival === "while-typing" && !typingInWorkshop()) inputRef.current?.focus();
    return playStory(story, requests, run.host);
  }, [story, requests, run]);

  useEffect(() => {
    const slot = slotRef.current;
    if (!story.then || !slot) return;
    return pressWhenShown(slot, story.then === "submit" ? "primary" : "dismiss");
  }, [story.then]);

  useEffect(() => {
    const slot = slotRef.current;
    if (story.reason === undefined || !slot) return;
    return typeReasonWhenShown(slot, story.reason);
  }, [story.reason]);

  const entries = useMemo(
    () =>
      createSlotEntries({
        respond: run.engine.respond,
        stopTurn: (sessionId) => run.engine.stop(sessionId),
        moveToComposer: (sessionId, text) => run.store.getState().prefillComposer(sessionId, text),
        dismissRetired: (rpcId) => run.store.getState().dismissRetired(rpcId),
      }),
    [run],
  );

  return (
    <SessionStoreProvider store={run.store}>
      <main className="demo-frame" aria-label={t("conversation")}>
        <div className="demo-frame__conversation">
          <h1 className="demo-frame__title">{story.title[locale]}</h1>
          <p className="demo-frame__story">{story.description[locale]}</p>
          {playground?.kind === "errors" && (
            <div className="demo-frame__errors" role="alert">
              <p>{problemCount(t, playground.errors.length)}</p>
              <ul>
                {playground.errors.map((error, index) => (
                  <li key={index}>
                    <code>{error.path === "" ? t("playgroundRoot") : error.path}</code>: {error.message}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <ResolvedNotice onReplay={onReplay} />
        </div>
        <div className="demo-frame__slot" ref={slotRef} hidden={playground?.kind === "errors"}>
          <ComposerSlot
            entries={entries}
            sessionId={DEMO_SESSION_ID}
            drafts={run.drafts}
            composer={
              <Composer
                draftKey={DEMO_SESSION_ID}
                drafts={run.drafts}
                blockedReason={null}
                onSend={(text) => run.engine.send(DEMO_SESSION_ID, text)}
                inputRef={inputRef}
              />
            }
          />
        </div>
      </main>
    </SessionStoreProvider>
  );
}

/** "1 problem", "3 problems". */
/** Whether the workshop around this preview has a field in use (a knob being typed in): the story then leaves the focus there. */
function typingInWorkshop(): boolean {
  if (window.parent === window) return false;
  try {
    const tag = window.parent.document.activeElement?.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
  } catch {
    // A page of another origin around the preview: nothing of it can be read, and the story runs as alone.
    return false;
  }
}

export function problemCount(t: (key: "playgroundInvalidOne" | "playgroundInvalid", values?: Record<string, number>) => string, count: number): string {
  return count === 1 ? t("playgroundInvalidOne") : t("playgroundInvalid", { count });
}

/** An address naming no story: which id it named, and every story there is. */
function UnknownStory({ id }: { id: string }) {
  const t = useCopy(demoCopy);
  const { locale } = useLocale();
  return (
    <main className="demo-frame" aria-label={t("conversation")}>
      <div className="demo-frame__conversation">
        <UnknownStoryNotice id={id} locale={locale} />
      </div>
    </main>
  );
}

/** The notice for an unknown story id, with a link to each story. */
export function UnknownStoryNotice({ id, locale }: { id: string; locale: keyof Story["title"] }) {
  const t = useCopy(demoCopy);
  return (
    <div className="demo__unknown" role="alert">
      <p className="demo__unknown-title">{t("unknownStory", { id })}</p>
      <p>{t("unknownStoryHint")}</p>
      <ul className="demo__unknown-list">
        {STORIES.map((story) => (
          <li key={story.id}>
            <a href={`#${story.id}`}>
              <code>{story.id}</code>
            </a>{" "}
            {story.title[locale]}
          </li>
        ))}
      </ul>
    </div>
  );
}

const selectDemoRequests = selectPendingRequests(DEMO_SESSION_ID);
const selectDemoRetired = selectFirstRetired(DEMO_SESSION_ID);
const selectDemoTranscript = selectTranscript(DEMO_SESSION_ID);

const RESOLVED_KEYS = { answered: "resolvedAnswered", cancelled: "resolvedCancelled", aborted: "resolvedAborted" } as const;

/** Once nothing is pending or retired: how the host resolved the story's last request, and Replay. */
function ResolvedNotice({ onReplay }: { onReplay: () => void }) {
  const t = useCopy(demoCopy);
  const pending = useSessionStore(selectDemoRequests);
  const retired = useSessionStore(selectDemoRetired);
  const transcript = useSessionStore(selectDemoTranscript);
  const outcome = lastQuestionOutcome(transcript);
  if (pending.length > 0 || retired !== null || outcome === null) return null;
  return (
    <div className="demo-frame__resolved">
      <p role="status">{t(RESOLVED_KEYS[outcome])}</p>
      <button type="button" className="demo__button" onClick={onReplay}>
        {t("replay")}
      </button>
    </div>
  );
}
