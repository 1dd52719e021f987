import { useCallback, useEffect, useRef, useState } from "react";
import { questionCopy } from "../features/question/copy";
import { deleteDraft, saveDraft } from "../features/question/draft-storage";
import { QuestionPanel } from "../features/question/question-panel";
import { RetiredNotice } from "../features/question/retired-notice";
import { useLocale, useCopy } from "../i18n/i18n";
import type { Locale } from "../i18n/locale";
import type { PendingRequest, Receipt, RespondRequest, ResolvedOutcome } from "../protocol/schemas";
import { applyTheme } from "../ui/theme";
import { fakeOutcome, SLOW_REPLY_MS } from "./fake-host";
import { postToShell, readShellMessage, settingsFromLocation, type FrameSettings } from "./frame-messages";
import { demoCopy } from "./copy";
import { PLAYGROUND_EXAMPLE, readPlayground } from "./playground";
import { decodeHash, storyFromHash, type Story, type StoryStep } from "./stories";

interface Run {
  story: Story;
  /** Bumped by `Replay story` so the panel remounts from the seeded state. */
  round: number;
  pending: PendingRequest[];
  resolved: ResolvedOutcome | null;
}

/** Puts a story back to its first state: drafts seeded as a reload would find them. */
function startRun(story: Story, round: number): Run {
  story.requests.forEach((request) => deleteDraft(request.rpcId));
  const first = story.requests[0];
  if (first && story.initialDraft) saveDraft(first.rpcId, story.initialDraft);
  return { story, round, pending: story.requests, resolved: null };
}

const STEP_BUTTONS = { dismiss: "dismiss", submit: "submit" } as const;

function findButton(root: HTMLElement, name: string): HTMLButtonElement | null {
  const buttons = Array.from(root.querySelectorAll("button"));
  return buttons.find((button) => (button.getAttribute("aria-label") ?? button.textContent ?? "").trim() === name) ?? null;
}

function performStep(root: HTMLElement, step: StoryStep, locale: Locale): void {
  const button = findButton(root, questionCopy[locale][STEP_BUTTONS[step]]);
  if (!button) {
    console.warn(`demo step "${step}" found no button to press`);
    return;
  }
  button.click();
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

let sendCounter = 0;

/** How long the preview's message box is typed in before the batch of an `arrives-while-typing` story arrives. */
const ARRIVAL_DELAY_MS = 600;

/** The playground's request carries the pasted batch, under an rpcId of its own so drafts of another batch do not apply. */
function playgroundRequests(pending: PendingRequest[], playground: ReturnType<typeof readPlayground> | null): PendingRequest[] {
  if (playground === null) return pending;
  const first = pending[0];
  if (!first || playground.kind === "errors") return [];
  return [{ ...first, rpcId: `${first.rpcId}-${hashOf(JSON.stringify(playground.questions))}`, questions: playground.questions }];
}

function hashOf(text: string): string {
  let hash = 0;
  for (let index = 0; index < text.length; index++) hash = (hash * 31 + text.charCodeAt(index)) | 0;
  return (hash >>> 0).toString(36);
}

/** The preview document: one story's real question panel, answered by the fake host. */
export function StoryFrame() {
  const t = useCopy(demoCopy);
  const { locale, setLocale } = useLocale();
  const [settings, setSettings] = useState<FrameSettings>(() => settingsFromLocation(window.location));
  const [run, setRun] = useState<Run>(() => startRun(storyFromHash(window.location.hash), 0));
  const runRef = useRef(run);
  const settingsRef = useRef(settings);
  const slotRef = useRef<HTMLDivElement>(null);
  const stepDoneRef = useRef<string | null>(null);

  useEffect(() => {
    runRef.current = run;
    settingsRef.current = settings;
  });

  const openStory = useCallback((storyId: string) => {
    setRun((current) => (current.story.id === storyId ? current : startRun(storyFromHash(storyId), current.round + 1)));
  }, []);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.source !== window.parent) return;
      const message = readShellMessage(event);
      if (!message) return;
      setSettings(message.settings);
      openStory(message.settings.storyId);
    };
    const onHashChange = () => openStory(decodeHash(window.location.hash) ?? "");
    window.addEventListener("message", onMessage);
    window.addEventListener("hashchange", onHashChange);
    postToShell({ type: "ready" });
    return () => {
      window.removeEventListener("message", onMessage);
      window.removeEventListener("hashchange", onHashChange);
    };
  }, [openStory]);

  useEffect(() => {
    applyTheme(settings.theme);
  }, [settings.theme]);

  useEffect(() => {
    if (settings.locale !== locale) setLocale(settings.locale);
    document.documentElement.lang = settings.locale;
  }, [settings.locale, locale, setLocale]);

  useEffect(() => {
    document.title = run.story.title[locale];
  }, [run.story, locale]);

  useEffect(() => {
    if (settings.phone) document.documentElement.dataset.preview = "phone";
    else delete document.documentElement.dataset.preview;
  }, [settings.phone]);

  const [typingReady, setTypingReady] = useState<string | null>(null);
  const typingRef = useRef<HTMLTextAreaElement>(null);
  const typingKey = `${run.story.id}:${run.round}`;
  useEffect(() => {
    if (run.story.arrival !== "while-typing") return;
    typingRef.current?.focus();
    const timer = setTimeout(() => setTypingReady(typingKey), ARRIVAL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [run.story.arrival, typingKey]);

  const playground = run.story.playground ? readPlayground(settings.args ?? PLAYGROUND_EXAMPLE) : null;
  const shown = playgroundRequests(run.pending, playground);
  const shownRef = useRef(shown);
  useEffect(() => {
    shownRef.current = shown;
  });
  const waitingForTyping = run.story.arrival === "while-typing" && typingReady !== typingKey;
  const current = waitingForTyping ? undefined : shown[0];
  const stepKey = `${run.story.id}:${run.round}`;
  useEffect(() => {
    const step = run.story.then;
    const slot = slotRef.current;
    if (!step || !slot || stepDoneRef.current === stepKey) return;
    if (run.pending.length !== run.story.requests.length) return;
    stepDoneRef.current = stepKey;
    const timer = setTimeout(() => performStep(slot, step, locale), 0);
    return () => clearTimeout(timer);
  }, [run, stepKey, locale]);

  const respond = useCallback(async (body: RespondRequest): Promise<Receipt> => {
    const id = `send-${++sendCounter}`;
    const storyId = runRef.current.story.id;
    postToShell({ type: "sent", id, storyId, body });
    const reply = settingsRef.current.reply ?? runRef.current.story.reply;
    if (reply === "slow") await delay(SLOW_REPLY_MS);
    const pending = shownRef.current.find((request) => request.rpcId === body.rpcId);
    const outcome = fakeOutcome(reply, pending, body);
    postToShell({ type: "settled", id, result: outcome });
    if (outcome.kind === "network-error") throw new TypeError(outcome.message);
    if (outcome.receipt.accepted) {
      setTimeout(() => {
        deleteDraft(body.rpcId);
        setRun((latest) => {
          const rest = latest.pending.filter((request) => request.rpcId !== body.rpcId && !body.rpcId.startsWith(`${request.rpcId}-`));
          if (rest.length === latest.pending.length) return latest;
          return { ...latest, pending: rest, resolved: rest.length === 0 ? (body.type === "answer" ? "answered" : "cancelled") : null };
        });
      }, 0);
    }
    return outcome.receipt;
  }, []);

  const replay = () => setRun((latest) => startRun(latest.story, latest.round + 1));

  return (
    <div className="demo-frame">
      <main className="demo-frame__conversation" aria-label={t("conversation")}>
        <h1 className="demo-frame__title">{run.story.title[locale]}</h1>
        <p className="demo-frame__story">{run.story.description[locale]}</p>
        {run.story.arrival === "while-typing" && (
          <textarea ref={typingRef} className="demo-frame__typing" aria-label={t("typingField")} defaultValue={t("typingText")} rows={2} />
        )}
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
        {!current && !waitingForTyping && playground?.kind !== "errors" && (
          <div className="demo-frame__resolved">
            <p role="status">{run.resolved === "cancelled" ? t("resolvedCancelled") : t("resolvedAnswered")}</p>
            <button type="button" className="demo__button" onClick={replay}>
              {t("replay")}
            </button>
          </div>
        )}
      </main>
      <div className="demo-frame__slot" ref={slotRef}>
        {current && run.story.retired && (
          <RetiredNotice key={`${current.rpcId}:${run.round}`} retired={{ request: current, reason: run.story.retired }} onDismiss={() => setRun((latest) => ({ ...latest, pending: [], resolved: "answered" }))} />
        )}
        {current && !run.story.retired && (
          <QuestionPanel
            key={`${current.rpcId}:${run.round}`}
            request={current}
            position={{ index: 0, count: shown.length }}
            respond={respond}
            autoFocus
          />
        )}
      </div>
    </div>
  );
}
