import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { createQuestionEntry, createRetiredEntry } from "../app/question-entry";
import { createSessionEngine, type SessionEngine } from "../client/session-engine";
import { Composer } from "../features/chat/composer";
import { ComposerSlot } from "../features/chat/composer-slot";
import "../features/chat/chat.css";
import { deleteDraft, saveDraft } from "../features/question/draft-storage";
import { retireDraft } from "../features/question/retired-drafts";
import { useLocale, useCopy } from "../i18n/i18n";
import type { Message, PendingRequest, Session } from "../protocol/schemas";
import { SessionStoreProvider, useSessionStore } from "../store/react";
import { selectFirstRetired, selectPendingRequests, selectTranscript } from "../store/selectors";
import { createSessionStore, type SessionStore } from "../store/session-store";
import { applyTheme } from "../ui/theme";
import { createFakeHost, type FakeHost } from "./fake-host";
import { postToShell, readShellMessage, settingsFromLocation, type FrameSettings, type HostAction } from "./frame-messages";
import { demoCopy } from "./copy";
import { PLAYGROUND_EXAMPLE, readPlayground, type PlaygroundResult } from "./playground";
import { decodeHash, DEMO_SESSION_ID, storyFromHash, type Story } from "./stories";

/** How long the preview's composer is typed in before the batch of an `arrives-while-typing` story arrives. */
const ARRIVAL_DELAY_MS = 600;
/** How long a story step waits for the part of the panel it presses before it gives up. */
const STEP_TIMEOUT_MS = 5000;

const DEMO_SESSION: Session = { id: DEMO_SESSION_ID, title: "Demo", createdAt: "2026-01-15T09:30:00.000Z", updatedAt: "2026-01-15T09:30:00.000Z", state: "idle" };

/** The playground's request carries the pasted batch, under an rpcId of its own so drafts of another batch do not apply. */
function requestsOf(story: Story, playground: PlaygroundResult | null): PendingRequest[] {
  if (playground === null) return story.requests;
  const first = story.requests[0];
  if (!first || playground.kind === "errors") return [];
  return [{ ...first, rpcId: `${first.rpcId}-${hashOf(JSON.stringify(playground.questions))}`, questions: playground.questions }];
}

function hashOf(text: string): string {
  let hash = 0;
  for (let index = 0; index < text.length; index++) hash = (hash * 31 + text.charCodeAt(index)) | 0;
  return (hash >>> 0).toString(36);
}

type HostListener = (action: HostAction) => void;

/** One run of a story: its own fake host, store and engine, as a freshly opened tab would have. */
interface Run {
  host: FakeHost;
  store: SessionStore;
  engine: SessionEngine;
  drafts: Map<string, string>;
}

function createRun(story: Story, requests: readonly PendingRequest[], settings: { current: FrameSettings }, typingText: string): Run {
  requests.forEach((request) => deleteDraft(request.rpcId));
  const first = requests[0];
  if (first && story.initialDraft) saveDraft(first.rpcId, story.initialDraft);
  const store = createSessionStore();
  const host = createFakeHost({
    sessions: [DEMO_SESSION],
    reply: () => settings.current.reply ?? story.reply,
    observer: {
      sent: (id, body) => postToShell({ type: "sent", id, storyId: story.id, body }),
      settled: (id, result) => postToShell({ type: "settled", id, result }),
    },
  });
  const drafts = new Map<string, string>(story.arrival === "while-typing" ? [[DEMO_SESSION_ID, typingText]] : []);
  const engine = createSessionEngine({ store, api: host.api, connect: host.connect, url: "demo:", drafts, newChatDraftKey: "", retireDraft });
  return { host, store, engine, drafts };
}

/** Plays the story on the fake host: the agent asks, then whatever else the story needs happens on the host. */
function playStory(story: Story, requests: readonly PendingRequest[], host: FakeHost): () => void {
  const timer = setTimeout(
    () => {
      for (const request of requests) host.ask(request);
      const first = requests[0];
      if (!first) return;
      if (story.retired === "answered-elsewhere") host.resolveElsewhere(first.rpcId, "answered");
      if (story.retired === "host-restarted") host.restart();
    },
    story.arrival === "while-typing" ? ARRIVAL_DELAY_MS : 0,
  );
  return () => clearTimeout(timer);
}

/** Presses the panel part a story step names once it is shown: found by its data attribute, never by its text. */
function pressWhenShown(root: HTMLElement, action: "primary" | "dismiss"): () => void {
  const selector = `[data-question-panel] [data-action="${action}"]`;
  const press = () => {
    const button = root.querySelector<HTMLButtonElement>(selector);
    if (!button || button.disabled) return false;
    button.click();
    return true;
  };
  let done = false;
  const observer = new MutationObserver(() => {
    if (!done && press()) stop();
  });
  const giveUp = setTimeout(() => {
    console.warn(`demo step "${action}" found nothing to press within ${STEP_TIMEOUT_MS} ms`);
    stop();
  }, STEP_TIMEOUT_MS);
  function stop() {
    done = true;
    observer.disconnect();
    clearTimeout(giveUp);
  }
  observer.observe(root, { childList: true, subtree: true, attributes: true });
  if (press()) stop();
  return stop;
}

/** The preview document: one story through the real engine, store and composer slot, answered by the fake host. */
export function StoryFrame() {
  const { locale, setLocale } = useLocale();
  const [settings, setSettings] = useState<FrameSettings>(() => settingsFromLocation(window.location));
  const [round, setRound] = useState(0);
  const [hostListeners] = useState(() => new Set<HostListener>());
  const story = storyFromHash(settings.storyId);
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
    document.title = story.title[locale];
  }, [story, locale]);

  useEffect(() => {
    if (settings.phone) document.documentElement.dataset.preview = "phone";
    else delete document.documentElement.dataset.preview;
  }, [settings.phone]);

  const args = story.playground ? (settings.args ?? PLAYGROUND_EXAMPLE) : null;
  const playground = useMemo(() => (args === null ? null : readPlayground(args)), [args]);
  const requests = useMemo(() => requestsOf(story, playground), [story, playground]);
  const runKey = `${story.id}:${round}:${requests.map((request) => request.rpcId).join(",")}`;
  const replay = useCallback(() => setRound((current) => current + 1), []);

  return (
    <StoryRun key={runKey} story={story} requests={requests} playground={playground} settingsRef={settingsRef} hostListeners={hostListeners} onReplay={replay} />
  );
}

interface StoryRunProps {
  story: Story;
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
    if (story.arrival === "while-typing") inputRef.current?.focus();
    return playStory(story, requests, run.host);
  }, [story, requests, run]);

  useEffect(() => {
    const slot = slotRef.current;
    if (!story.then || !slot) return;
    return pressWhenShown(slot, story.then === "submit" ? "primary" : "dismiss");
  }, [story.then]);

  const entries = useMemo(
    () => [
      createQuestionEntry(run.engine.respond, {
        stopTurn: (sessionId) => run.engine.stop(sessionId),
        moveToComposer: (sessionId, text) => run.store.getState().prefillComposer(sessionId, text),
      }),
      createRetiredEntry((rpcId) => run.store.getState().dismissRetired(rpcId)),
    ],
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
              <p>{t("playgroundInvalid", { count: playground.errors.length })}</p>
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
        <div className="demo-frame__slot" ref={slotRef}>
          <ComposerSlot
            entries={entries}
            sessionId={DEMO_SESSION_ID}
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

const selectDemoRequests = selectPendingRequests(DEMO_SESSION_ID);
const selectDemoRetired = selectFirstRetired(DEMO_SESSION_ID);
const selectDemoTranscript = selectTranscript(DEMO_SESSION_ID);

/** How the last question the agent asked ended, read from its tool row as data; null while one waits or none was asked. */
export function lastQuestionOutcome(transcript: readonly Message[]): "answered" | "cancelled" | "aborted" | null {
  const row = transcript.findLast((message) => message.tool !== undefined);
  if (!row?.tool || row.tool.status === "running") return null;
  if (row.tool.status === "ok") return "answered";
  return row.tool.error?.code === "ASK_CANCELLED" ? "cancelled" : "aborted";
}

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
