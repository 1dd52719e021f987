import { useEffect, useId, useMemo, useRef, useState, type JSX, type KeyboardEvent } from "react";
import type { PendingRequest, Receipt, RespondRequest } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { ArrivalNotice } from "./arrival-notice";
import { AskerProvider } from "./asker";
import { CollapsedBar } from "./collapsed-bar";
import { DismissConfirm } from "./dismiss-confirm";
import { draftOf, setCollapsed, typeCustom } from "./draft";
import { createImeGuard } from "../../ui/ime";
import { questionCopy } from "./copy";
import { PanelHeader } from "./panel-header";
import { PlanReviewCard } from "./plan-review-card";
import { toPlanReview } from "../../protocol/plan-review";
import { QuestionWizard } from "./question-wizard";
import { focusStep, isPanelEscape } from "./step-keys";
import { usePanelKeyGuard, useSendFocus } from "../../ui/takeover-guard";
import { focusInPanel } from "../../ui/typing-activity";
import { usePanelAttention } from "./use-panel-attention";
import { usePanelDraft } from "./use-panel-draft";
import { usePanelResponse, type PlanChat } from "./use-panel-response";
import { useSheetHeight } from "./use-sheet-height";
import { useVisualViewport, watchVisualViewport } from "./use-visual-viewport";
import "../../ui/composer-card.css";
import "./question-panel.css";

// Measured now, as the panel's code loads (the app loads it while idle), not as the first question arrives.
watchVisualViewport();

/** In the panel's bundle, which is loaded by the time a request can retire: a host that just went away cannot serve a chunk. */
export { RetiredNotice } from "./retired-notice";
export type { PlanChat } from "./use-panel-response";

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
  useVisualViewport(rootRef);
  const sheetHeight = useSheetHeight(rootRef);
  const [state, setState] = usePanelDraft(request);
  const focusPanel = () => {
    const root = rootRef.current;
    if (review) document.getElementById(headingId)?.focus();
    else if (root && !focusStep(root)) document.getElementById(headingId)?.focus();
  };
  const sendFocus = useSendFocus(rootRef, headingId, focusPanel);
  const { busy, status, setStatus, confirming, answer, cancel, chatAboutIt, dismiss, keepAnswering } = usePanelResponse({
    request,
    state,
    respond,
    planChat,
    focusPanel,
    sendFocus,
  });
  const [imeGuard] = useState(createImeGuard);
  const { questions } = request;
  const question = questions[Math.min(state.index, questions.length - 1)]!;
  const onReviewStep = questions.length > 1 && state.index >= questions.length;
  const disabled = busy !== null;

  const shownCollapsedRef = useRef(state.collapsed);
  useEffect(() => {
    if (shownCollapsedRef.current === state.collapsed) return;
    shownCollapsedRef.current = state.collapsed;
    const active = document.activeElement;
    if (state.collapsed && (active === document.body || rootRef.current?.contains(active))) expandRef.current?.focus();
  }, [state.collapsed]);

  const collapse = () => setState((current) => setCollapsed(current, true));
  const { attention, takeFocus, expand, turnToPanel } = usePanelAttention({
    autoFocus,
    collapsed: state.collapsed,
    onExpand: () => setState((current) => setCollapsed(current, false)),
    focusPanel,
  });

  const isImeKey = (event: KeyboardEvent) =>
    imeGuard.isImeKey({ isComposing: event.nativeEvent.isComposing, keyCode: event.keyCode });
  const isImeEscape = (event: KeyboardEvent) => imeGuard.isImeEscape({ isComposing: event.nativeEvent.isComposing, keyCode: event.keyCode });
  // Read as it first renders, while the panel it replaces (if any) is still on the page with the focus.
  const [takesOver] = useState(() => takeFocus && focusInPanel());
  const keyGuard = usePanelKeyGuard(rootRef, takesOver, isImeKey);
  const handleKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!isPanelEscape(event, isImeEscape(event), state.collapsed, disabled)) return;
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
        onKeyDownCapture={keyGuard.onKeyDownCapture}
        onClickCapture={keyGuard.onClickCapture}
        onFocus={turnToPanel}
        onPointerDown={turnToPanel}
        onCompositionStart={imeGuard.onCompositionStart}
        onCompositionEnd={imeGuard.onCompositionEnd}
      >
        {attention === "passive" && <ArrivalNotice count={questions.length} plan={review !== null} />}
        {state.collapsed ? (
          <CollapsedBar questions={questions} state={state} textId={barTextId} plan={review !== null} onExpand={expand} ref={expandRef} />
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
