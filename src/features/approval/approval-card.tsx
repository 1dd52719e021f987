import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { approvalAnswer, type ApprovalDecision } from "../../protocol/approval";
import type { PendingRequest, Receipt, RespondRequest, ToolApproval } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { showHiddenCharacters } from "../../protocol/hidden-characters";
import { STEP_GUARD_MS, takeFocusWhenFree, useFocusAfterRender, useTakeoverCard } from "../../ui/takeover-guard";
import { useSessionStore } from "../../store/react";
import { selectPendingRequests } from "../../store/selectors";
import { approvalCopy } from "./copy";
import { isEmptyArguments, prettyArguments } from "./pretty-arguments";
import "../../ui/composer-card.css";
import "./approval.css";

export interface ApprovalCardProps {
  request: PendingRequest & { approval: ToolApproval };
  /** POST /api/respond; rejects on a network error. */
  respond: (body: RespondRequest) => Promise<Receipt>;
  /** Take focus when shown, if this tab is visible and focused and nothing else holds focus. Default true. */
  autoFocus?: boolean;
}

/** Choosing among the three decisions, or Deny chosen and its optional reason being written. */
type CardStage = "choosing" | "denying";

/** What the card is doing: nothing yet, sending a decision, sent (waiting for question/resolved), or a receipt that refused it. */
type CardStatus =
  | { kind: "idle" }
  | { kind: "sending"; decision: ApprovalDecision["kind"] }
  | { kind: "sent" }
  | { kind: "not-pending" }
  | { kind: "rejected"; detail: string }
  | { kind: "failed"; message: string };

const SERVER_SLOT = "\u0000";
const TOOL_SLOT = "\u0001";

/** Translated text with outside names in their places as isolated text nodes with their hidden characters marked, never markup. */
function withNames(text: string, names: ReadonlyMap<string, string>): ReactNode[] {
  const pattern = new RegExp(`([${[...names.keys()].join("")}])`, "u");
  return text.split(pattern).map((part, index) => {
    const name = names.get(part);
    return name === undefined ? part : (
      <bdi key={index} className="approval-card__name">
        {showHiddenCharacters(name)}
      </bdi>
    );
  });
}

/**
 * The approval card that takes over the composer while a tool call waits for the human: which
 * server and tool, the full arguments, and Allow once, Allow for this chat, Deny; Deny then asks for an
 * optional reason before it is sent. A tool its server calls destructive is marked so, with Deny as the default.
 * The arguments show what the tool will receive: hidden characters (a bidi override that turns
 * `txt.exe` into `exe.txt`, a zero-width space) as markers, and every line wrapped, never cut off sideways.
 */
export function ApprovalCard({ request, respond, autoFocus = true }: ApprovalCardProps) {
  const t = useCopy(approvalCopy);
  const headingId = useId();
  const reasonId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const cardRef = useRef<HTMLElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const [reason, setReason] = useState("");
  const [stage, setStage] = useState<CardStage>("choosing");
  const [status, setStatus] = useState<CardStatus>({ kind: "idle" });
  const { server, tool, arguments: argumentText, destructive = false } = request.approval;
  const busy = status.kind === "sending" || status.kind === "sent";
  const pendingCount = useSessionStore((state) => selectPendingRequests(request.sessionId)(state).length);
  const { isImeKey, sendFocus, rootProps } = useTakeoverCard(cardRef, autoFocus, headingId);
  /** When a key opened the reason box: the second press of a double Enter on Deny is not the reason's Enter. */
  const reasonOpenedByKeyAt = useRef(Number.NEGATIVE_INFINITY);

  useEffect(() => {
    if (!autoFocus) return;
    return takeFocusWhenFree(() => cardRef.current, () => headingRef.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the card first shows
  }, []);
  useEffect(() => {
    if (stage === "denying") reasonRef.current?.focus();
  }, [stage]);
  const focusAfterRender = useFocusAfterRender();

  const decide = async (decision: ApprovalDecision) => {
    sendFocus.hold();
    setStatus({ kind: "sending", decision: decision.kind });
    try {
      const receipt = await respond({ type: "answer", rpcId: request.rpcId, sessionId: request.sessionId, answers: approvalAnswer(decision) });
      if (receipt.accepted) {
        setStatus({ kind: "sent" });
        return;
      }
      setStatus(receipt.reason === "not-pending" ? { kind: "not-pending" } : { kind: "rejected", detail: receipt.detail });
    } catch (error) {
      setStatus({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
    }
    // Refused or not delivered: every decision is offered again, the typed reason kept.
    setStage("choosing");
    sendFocus.failed();
  };

  const names = new Map([
    [SERVER_SLOT, server],
    [TOOL_SLOT, tool],
  ]);

  // Deny first asks for an optional reason; for a tool its server calls destructive it is the default (primary) button, last in the row.
  const denyButton = (
    <button
      type="button"
      className={`composer-card__button ${destructive ? "composer-card__button--primary composer-card__button--danger-primary" : "composer-card__button--danger"}`}
      data-action="deny"
      disabled={busy}
      onClick={(event) => {
        // Enter or Space (a click without a position) may come twice; a tap or a click does not type into the box.
        reasonOpenedByKeyAt.current = event.detail === 0 ? performance.now() : Number.NEGATIVE_INFINITY;
        setStage("denying");
      }}
    >
      {t("deny")}
    </button>
  );

  return (
    <section
      ref={cardRef}
      role="region"
      className="composer-card composer-card--sheet approval-card"
      data-destructive={destructive}
      aria-labelledby={headingId}
      data-approval-card=""
      data-busy={busy}
      {...rootProps}
    >
      <div className="approval-card__header">
        <span className="approval-card__eyebrow">{t("eyebrow")}</span>
        {destructive && <span className="approval-card__destructive">{t("destructiveBadge")}</span>}
        {pendingCount > 1 && <span>{t("requestPosition", { count: pendingCount })}</span>}
      </div>
      <div className="approval-card__body">
        <h2 id={headingId} className="approval-card__heading" tabIndex={-1} ref={headingRef}>
          {withNames(t("heading", { server: SERVER_SLOT, tool: TOOL_SLOT }), names)}
        </h2>
        {isEmptyArguments(argumentText) ? (
          <p className="approval-card__empty">{t("noArguments")}</p>
        ) : (
          <pre className="approval-card__arguments" role="region" aria-label={t("argumentsLabel")} tabIndex={0}>
            <code>{showHiddenCharacters(prettyArguments(argumentText))}</code>
          </pre>
        )}
        {destructive && <p className="approval-card__warning">{withNames(t("destructiveHint", { server: SERVER_SLOT }), names)}</p>}
        {stage === "denying" && (
          <>
            <label htmlFor={reasonId} className="approval-card__reason-label">
              {t("reasonLabel")}
            </label>
            <textarea
              ref={reasonRef}
              id={reasonId}
              className="composer-card__field approval-card__reason"
              placeholder={request.origin?.kind === "acp-agent" ? t("reasonPlaceholderAgent", { name: request.origin.title ?? request.origin.name }) : t("reasonPlaceholder")}
              rows={2}
              value={reason}
              disabled={busy}
              onChange={(event) => setReason(event.target.value)}
              onKeyDown={(event) => {
                if (event.key !== "Enter" || event.shiftKey || isImeKey(event)) return;
                event.preventDefault();
                // The second press of the Enter that opened the box sends nothing (a held one's repeats never reach here).
                if (performance.now() - reasonOpenedByKeyAt.current < STEP_GUARD_MS) return;
                if (!busy) void decide({ kind: "deny", reason });
              }}
            />
          </>
        )}
      </div>
      <div className="composer-card__footer">
        <p role="status" className="approval-card__status" data-kind={status.kind}>
          {status.kind === "sending" && t("sending")}
          {status.kind === "sent" && t("sent")}
          {status.kind === "not-pending" && t("notPending")}
          {status.kind === "rejected" && t("rejected", { detail: status.detail })}
          {status.kind === "failed" && t("failed", { message: status.message })}
        </p>
        <div className="approval-card__actions">
          {stage === "denying" ? (
            <>
              <button type="button" className="composer-card__button" disabled={busy} onClick={() => focusAfterRender(() => cardRef.current?.querySelector<HTMLElement>('[data-action="deny"]'), () => setStage("choosing"))}>
                {t("back")}
              </button>
              <button type="button" className="composer-card__button composer-card__button--danger" data-action="deny" disabled={busy} onClick={() => void decide({ kind: "deny", reason })}>
                {t("deny")}
              </button>
            </>
          ) : (
            <>
              {!destructive && denyButton}
              <button type="button" className="composer-card__button" disabled={busy} onClick={() => void decide({ kind: "allow-for-chat" })}>
                {t("allowForChat")}
              </button>
              <button
                type="button"
                className={`composer-card__button${destructive ? "" : " composer-card__button--primary"}`}
                data-action="allow-once"
                disabled={busy}
                onClick={() => void decide({ kind: "allow-once" })}
              >
                {t("allowOnce")}
              </button>
              {destructive && denyButton}
            </>
          )}
        </div>
      </div>
    </section>
  );
}
