import { useEffect, useId, useMemo, useRef, useState } from "react";
import type { QuestionItem } from "../../protocol/schemas";
import type { RetiredRequest, RetireReason } from "../../store/state";
import { useCopy } from "../../i18n/i18n";
import type { DraftState } from "./draft";
import { deleteDraft, loadDraft } from "./draft-storage";
import { questionCopy, type QuestionMessageKey } from "./copy";
import { ModelText } from "./model-text";
import { AskerProvider, useAskerSentence } from "./asker";
import "../../ui/composer-card.css";
import "./question-panel.css";

const REASON_KEYS = new Map<RetireReason, QuestionMessageKey>([
  ["answered-elsewhere", "retiredAnswered"],
  ["answered-unconfirmed", "retiredUnconfirmed"],
  ["dismissed-elsewhere", "retiredDismissed"],
  ["stopped", "retiredStopped"],
  ["resolved-away", "retiredAway"],
  ["host-restarted", "retiredRestart"],
  ["host-lost", "retiredHostLost"],
]);

/** One question the user had answered in the draft, with that answer as plain text. */
export interface DraftedAnswer {
  id: string;
  question: string;
  answer: string;
}

/** The answers a draft holds, in question order; questions with nothing chosen or typed are left out. */
export function draftedAnswers(questions: readonly QuestionItem[], state: DraftState | null): DraftedAnswer[] {
  if (state === null) return [];
  return questions.flatMap((question) => {
    const draft = state.drafts.get(question.id);
    if (!draft) return [];
    const parts = [...draft.selected, ...(draft.custom.trim() === "" ? [] : [draft.custom])];
    return parts.length === 0 ? [] : [{ id: question.id, question: question.question, answer: parts.join(", ") }];
  });
}

/** The drafted answers as plain text for the clipboard: each question, then its answer. */
export function draftedText(answers: readonly DraftedAnswer[]): string {
  return answers.map((item) => `${item.question}\n${item.answer}`).join("\n\n");
}

type CopyState = "idle" | "copied" | "manual";

export interface RetiredNoticeProps {
  retired: RetiredRequest;
  /** Removes the notice; the saved draft is deleted first. */
  onDismiss: () => void;
}

/**
 * In the composer slot after a request this tab held answers for went away without them being sent
 * from here: says why, keeps the answers readable, offers to copy them, until dismissed.
 */
export function RetiredNotice(props: RetiredNoticeProps) {
  return (
    <AskerProvider value={props.retired.request.origin}>
      <Notice {...props} />
    </AskerProvider>
  );
}

function Notice({ retired, onDismiss }: RetiredNoticeProps) {
  const t = useCopy(questionCopy);
  const say = useAskerSentence();
  const titleId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const listRef = useRef<HTMLDListElement>(null);
  const { rpcId, questions } = retired.request;
  const answers = useMemo(() => draftedAnswers(questions, loadDraft(rpcId)), [questions, rpcId]);
  const [copy, setCopy] = useState<CopyState>("idle");

  useEffect(() => {
    if (document.activeElement === document.body) headingRef.current?.focus();
  }, []);

  const selectAnswers = () => {
    if (listRef.current) window.getSelection()?.selectAllChildren(listRef.current);
    setCopy("manual");
  };
  const onCopy = async () => {
    if (!navigator.clipboard?.writeText) {
      selectAnswers();
      return;
    }
    try {
      await navigator.clipboard.writeText(draftedText(answers));
      setCopy("copied");
    } catch (error) {
      console.warn("clipboard write failed; selecting the answers for a manual copy", error);
      selectAnswers();
    }
  };
  const dismiss = () => {
    deleteDraft(rpcId);
    onDismiss();
  };

  return (
    <section role="region" aria-labelledby={titleId} className="composer-card composer-card--sheet question-notice" data-question-panel="" data-reason={retired.reason}>
      <h2 id={titleId} ref={headingRef} tabIndex={-1} className="question-notice__title">
        {say(REASON_KEYS.get(retired.reason)!)}
      </h2>
      <p className="question-notice__hint">{t(retired.reason === "answered-unconfirmed" ? "retiredUnconfirmedHint" : "retiredHint")}</p>
      <dl ref={listRef} className="question-notice__answers">
        {answers.map((item) => (
          <div key={item.id} className="question-notice__answer">
            <dt>
              <ModelText text={item.question} />
            </dt>
            <dd>
              <ModelText text={item.answer} />
            </dd>
          </div>
        ))}
      </dl>
      <div className="question-notice__footer">
        <p role="status" className="question-notice__status">
          {copy === "copied" && t("copied")}
          {copy === "manual" && t("copyManually")}
        </p>
        <button type="button" className="composer-card__button" onClick={() => void onCopy()}>
          {t("copyAnswers")}
        </button>
        <button type="button" className="composer-card__button composer-card__button--primary" onClick={dismiss}>
          {t("dismissNotice")}
        </button>
      </div>
    </section>
  );
}
