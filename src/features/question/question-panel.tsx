import { useEffect, useId, useMemo, useRef, useState, type JSX, type KeyboardEvent } from "react";
import type { AnswerItem, PendingRequest, Receipt, RespondRequest } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { ArrivalNotice } from "./arrival-notice";
import { AskerProvider } from "./asker";
import { CollapsedBar } from "./collapsed-bar";
import { DismissConfirm } from "./dismiss-confirm";
import { createDraftState, draftOf, hasAnyDraft, setCollapsed, typeCustom, withDefaults, type DraftState } from "./draft";
import { flushDrafts, loadDraft, saveDraftSoon } from "./draft-storage";
import { createImeGuard } from "../../ui/ime";
import { questionCopy } from "./copy";
import { PanelHeader } from "./panel-header";
import { PlanReviewCard } from "./plan-review-card";
import { toPlanReview } from "../../protocol/plan-review";
import { QuestionWizard } from "./question-wizard";
import { isTypingElsewhere, whenTypingStops } from "./typing-activity";
import { afterPress } from "./press-activity";
import { useRespond } from "./use-respond";
import { focusStep, isPanelEscape, useAnswerShortcut } from "./step-keys";
import { useSheetHeight } from "./use-sheet-height";
import { useVisualViewport } from "./use-visual-viewport";
import "../../ui/composer-card.css";
import "./question-panel.css";

/** In the panel's bundle, which is loaded by the time a request can retire: a host that just went away cannot serve a chunk. */
export { RetiredNotice } from "./retired-notice";

export interface QuestionPanelProps {
  request: PendingRequest;
  /** 0-based index among the session's pending requests. */
  position: { index: number; count: number };
  /** POST /api/respond; rejects on a network error. */
  respond: (body: RespondRequest) => Promise<Receipt>;
  /** Take focus when shown, if the tab is visible and focused and the user is not typing elsewhere. Default true. */
  autoFocus?: boolean;
  /** What Chat about it on a plan review does besides cancelling; without it, it only cancels. */
  planChat?: PlanChat;
}

/** Chat about it stops the session's turn first, so the agent does not carry on alone, then hands the note to the composer. */
export interface PlanChat {
  /** POST /api/sessions/:id/abort; rejects on failure, which leaves the card as it was. */
  stopTurn: (sessionId: string) => Promise<void>;
  /** Puts the typed note into the session's composer. */
  moveToComposer: (sessionId: string, text: string) => void;
}

/**
 * Whether the user has turned to the panel. A panel that arrives while the user types elsewhere
 * starts `passive`: it takes no focus and announces itself, until a click, Tab or Alt+Q, or until
 * the typing stops (the composer is emptied by sending, or 1.5 s pass with no keystroke).
 */
type Attention = "engaged" | "passive";

function canTakeFocus(): boolean {
  return document.visibilityState === "visible" && document.hasFocus();
}

function initialState(request: PendingRequest): DraftState {
  // Defaults pre-fill only questions with no draft yet: what the user drafted wins (rule question-defaults).
  const saved = withDefaults(loadDraft(request.rpcId) ?? createDraftState(), request.questions);
  // A batch of two or more has a review step after its last question, at index questions.length.
  const last = request.questions.length > 1 ? request.questions.length : 0;
  return { ...saved, index: Math.min(saved.index, last) };
}

/** The question panel that takes over the composer while a request is pending. */
export function QuestionPanel(props: QuestionPanelProps): JSX.Element {
  return <RequestPanel key={props.request.rpcId} {...props} />;
}

function RequestPanel({ request, position, respond, autoFocus = true, planChat }: QuestionPanelProps) {
  const t = useCopy(questionCopy);
  const headingId = useId();
  const barTextId = useId();
  const rootRef = useRef<HTMLElement>(null);
  const expandRef = useRef<HTMLButtonElement>(null);
  const review = useMemo(() => toPlanReview(request), [request]);
  const [state, setState] = useState(() => initialState(request));
  const { busy, status, setStatus, send: sendResponse } = useRespond(respond);
  const [confirming, setConfirming] = useState(false);
  const [arrival] = useState(() => ({ typing: isTypingElsewhere() }));
  const [attention, setAttention] = useState<Attention>(arrival.typing ? "passive" : "engaged");
  const [takeFocus, setTakeFocus] = useState(() => autoFocus && canTakeFocus() && !arrival.typing);
  const [imeGuard] = useState(createImeGuard);
  const { rpcId, sessionId, questions } = request;
  const question = questions[Math.min(state.index, questions.length - 1)]!;
  const onReviewStep = questions.length > 1 && state.index >= questions.length;
  const disabled = busy !== null;
  useVisualViewport(rootRef);
  const sheetHeight = useSheetHeight(rootRef);

  useEffect(() => saveDraftSoon(rpcId, state), [rpcId, state]);
  useEffect(() => flushDrafts, [rpcId]);

  const shownCollapsedRef = useRef(state.collapsed);
  useEffect(() => {
    if (shownCollapsedRef.current === state.collapsed) return;
    shownCollapsedRef.current = state.collapsed;
    const active = document.activeElement;
    if (state.collapsed && (active === document.body || rootRef.current?.contains(active))) expandRef.current?.focus();
  }, [state.collapsed]);

  const send = (body: RespondRequest) => {
    setConfirming(false);
    void sendResponse(body);
  };
  const answer = (answers: AnswerItem[]) => send({ type: "answer", rpcId, sessionId, answers });
  const cancel = () => send({ type: "cancel", rpcId, sessionId });
  const chatAboutIt = (note: string) => {
    if (!planChat) {
      cancel();
      return;
    }
    void sendResponse(
      { type: "cancel", rpcId, sessionId },
      {
        before: () => planChat.stopTurn(sessionId),
        goneIsDone: true,
        after: () => {
          if (note.trim() !== "") planChat.moveToComposer(sessionId, note);
        },
      },
    );
  };
  const dismiss = () => (hasAnyDraft(questions, state) ? setConfirming(true) : cancel());
  const collapse = () => setState((current) => setCollapsed(current, true));
  const expand = () => {
    setTakeFocus(true);
    setAttention("engaged");
    setState((current) => setCollapsed(current, false));
  };
  const engage = () => {
    setAttention("engaged");
    if (state.collapsed) {
      expand();
      return;
    }
    const root = rootRef.current;
    if (review) document.getElementById(headingId)?.focus();
    else if (root && !focusStep(root)) document.getElementById(headingId)?.focus();
  };
  useAnswerShortcut(engage);
  const engageLatest = useRef(engage);
  useEffect(() => {
    engageLatest.current = engage;
  });
  // A panel that waited for the user to stop typing takes over by itself once they have (the composer was sent or left idle).
  const waitsForTyping = autoFocus && attention === "passive" && !state.collapsed;
  useEffect(() => {
    if (!waitsForTyping) return;
    return whenTypingStops(() => engageLatest.current(), canTakeFocus);
  }, [waitsForTyping]);
  // The panel's place and the arrival notice change when it is engaged; not mid-press, or the click would miss.
  const turnToPanel = () => {
    if (attention === "passive") afterPress(() => setAttention("engaged"));
  };
  const keepAnswering = () => {
    setConfirming(false);
    document.getElementById(headingId)?.focus();
  };

  const isImeKey = (event: KeyboardEvent) =>
    imeGuard.isImeKey({ isComposing: event.nativeEvent.isComposing, keyCode: event.keyCode });
  const handleKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!isPanelEscape(event, isImeKey(event), state.collapsed, disabled)) return;
    event.preventDefault();
    if (confirming) keepAnswering();
    else collapse();
  };

  return (
    <AskerProvider value={request.origin}>
      <section
        ref={rootRef}
        role="region"
        className="composer-card question-panel"
        aria-labelledby={state.collapsed ? barTextId : headingId}
        data-question-panel=""
        data-busy={busy ?? "none"}
        data-collapsed={state.collapsed}
        data-attention={attention}
        onKeyDown={handleKeyDown}
        onFocus={turnToPanel}
        onPointerDown={turnToPanel}
        onCompositionStart={imeGuard.onCompositionStart}
        onCompositionEnd={imeGuard.onCompositionEnd}
      >
        {attention === "passive" && <ArrivalNotice count={questions.length} />}
        {state.collapsed ? (
          <CollapsedBar questions={questions} state={state} textId={barTextId} onExpand={expand} ref={expandRef} />
        ) : (
          <>
            <PanelHeader
              eyebrow={review ? t("planReview") : onReviewStep ? t("reviewStep") : question.header}
              origin={request.origin}
              showsAsker={attention === "engaged"}
              position={position}
              disabled={disabled}
              onCollapse={collapse}
              onDismiss={dismiss}
            />
            {confirming && <DismissConfirm onKeep={keepAnswering} onDiscard={cancel} />}
            {review ? (
              <PlanReviewCard
                review={review}
                feedback={draftOf(state, review.note.id).custom}
                onFeedback={(text) => setState((current) => typeCustom(current, review.note, text))}
                status={status}
                disabled={disabled}
                headingId={headingId}
                takeFocus={takeFocus}
                onAnswer={answer}
                onChat={chatAboutIt}
              />
            ) : (
              <QuestionWizard
                request={request}
                state={state}
                onChange={setState}
                status={status}
                onStatus={setStatus}
                disabled={disabled}
                submitting={busy === "answer"}
                headingId={headingId}
                takeFocus={takeFocus}
                isImeKey={isImeKey}
                onSubmit={answer}
              />
            )}
          </>
        )}
      </section>
      {sheetHeight > 0 && <div className="question-panel__spacer" aria-hidden="true" style={{ height: sheetHeight }} />}
    </AskerProvider>
  );
}
