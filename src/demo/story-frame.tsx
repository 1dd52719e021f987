import { useCallback, useEffect, useRef, useState } from "react";
import { questionMessages } from "../features/question/messages";
import { deleteDraft, saveDraft } from "../features/question/draft-storage";
import { QuestionPanel } from "../features/question/question-panel";
import { useLocale, useMessages } from "../i18n/i18n";
import type { Locale } from "../i18n/locale";
import type { PendingRequest, Receipt, RespondRequest, ResolvedOutcome } from "../protocol/schemas";
import { applyTheme } from "../ui/theme";
import { fakeOutcome, SLOW_REPLY_MS } from "./fake-host";
import { postToShell, readShellMessage, settingsFromLocation, type FrameSettings } from "./frame-messages";
import { demoMessages } from "./messages";
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
  const button = findButton(root, questionMessages[locale][STEP_BUTTONS[step]]);
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

/** The preview document: one story's real question panel, answered by the fake host. */
export function StoryFrame() {
  const t = useMessages(demoMessages);
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

  const current = run.pending[0];
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
    const pending = runRef.current.pending.find((request) => request.rpcId === body.rpcId);
    const outcome = fakeOutcome(reply, pending, body);
    postToShell({ type: "settled", id, result: outcome });
    if (outcome.kind === "network-error") throw new TypeError(outcome.message);
    if (outcome.receipt.accepted) {
      setTimeout(() => {
        deleteDraft(body.rpcId);
        setRun((latest) => {
          const rest = latest.pending.filter((request) => request.rpcId !== body.rpcId);
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
        {!current && (
          <div className="demo-frame__resolved">
            <p role="status">{run.resolved === "cancelled" ? t("resolvedCancelled") : t("resolvedAnswered")}</p>
            <button type="button" className="demo__button" onClick={replay}>
              {t("replay")}
            </button>
          </div>
        )}
      </main>
      <div className="demo-frame__slot" ref={slotRef}>
        {current && (
          <QuestionPanel
            key={`${current.rpcId}:${run.round}`}
            request={current}
            position={{ index: 0, count: run.pending.length }}
            respond={respond}
            autoFocus
          />
        )}
      </div>
    </div>
  );
}
