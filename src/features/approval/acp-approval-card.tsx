import { useEffect, useId, useRef, useState } from "react";
import { choiceAnswer } from "../../protocol/approval";
import type { PendingRequest, Receipt, RespondRequest, ToolApproval } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { DiffView } from "../../ui/diff-view";
import { showHiddenCharacters } from "../../protocol/hidden-characters";
import { takeFocusWhenFree, useFocusAfterRender, useTakeoverCard } from "../../ui/takeover-guard";
import { acpApprovalCopy } from "./acp-approval-copy";
import "../../ui/composer-card.css";
import "./approval.css";

export interface AcpApprovalCardProps {
  request: PendingRequest & { approval: ToolApproval & { choices: string[] } };
  respond: (body: RespondRequest) => Promise<Receipt>;
}

type Status = { kind: "idle" } | { kind: "sending" } | { kind: "sent" } | { kind: "not-pending" } | { kind: "rejected"; detail: string } | { kind: "failed"; message: string };


/**
 * The card for an ACP agent's permission request (docs/protocol.md, acp-permission): the tool call's title and kind, the diff of an
 * edit, the command of an execute, its locations and the raw input (folded), and one button per option the agent offers, by its
 * name; a reject option first asks for an optional reason.
 */
export function AcpApprovalCard({ request, respond }: AcpApprovalCardProps) {
  const t = useCopy(acpApprovalCopy);
  const headingId = useId();
  const reasonId = useId();
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const [rejecting, setRejecting] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  const { approval } = request;
  const call = approval.toolCall;
  const title = request.origin?.title ?? approval.server;
  const busy = status.kind === "sending" || status.kind === "sent";
  // By kind, never by name: a reject option first asks for an optional reason.
  const rejects = new Set(approval.choices.filter((_, index) => approval.choiceKinds?.[index]?.startsWith("reject")));
  const cardRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const actionsRef = useRef<HTMLDivElement>(null);
  const { sendFocus, rootProps } = useTakeoverCard(cardRef, true, headingId);
  // It takes over as the MCP approval card and the question panel do: focus on its heading unless the user is typing elsewhere.
  useEffect(() => takeFocusWhenFree(() => cardRef.current, () => headingRef.current), []);
  const focusAfterRender = useFocusAfterRender();

  const send = async (label: string, withReason?: string) => {
    sendFocus.hold();
    setStatus({ kind: "sending" });
    try {
      const receipt = await respond({ type: "answer", rpcId: request.rpcId, sessionId: request.sessionId, answers: choiceAnswer(label, withReason) });
      if (receipt.accepted) return setStatus({ kind: "sent" });
      setStatus(receipt.reason === "not-pending" ? { kind: "not-pending" } : { kind: "rejected", detail: receipt.detail });
    } catch (error) {
      setStatus({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
    }
    setRejecting(null);
    sendFocus.failed();
  };

  const parts = call?.content ?? [];
  return (
    <section
      ref={cardRef}
      role="region"
      className="composer-card composer-card--sheet approval-card"
      aria-labelledby={headingId}
      data-approval-card=""
      data-acp=""
      data-busy={busy}
      {...rootProps}
    >
      <div className="approval-card__header">
        <span className="approval-card__eyebrow">{t("eyebrow")}</span>
        {call?.kind && <span>{t("kind", { kind: call.kind })}</span>}
      </div>
      <div className="approval-card__body">
        <h2 id={headingId} className="approval-card__heading" tabIndex={-1} ref={headingRef}>
          {showHiddenCharacters(t("heading", { title, tool: approval.tool }))}
        </h2>
        {parts.map((part, index) =>
          part.type === "diff" ? (
            <DiffView
              key={index}
              path={part.path}
              {...(part.oldText === undefined ? {} : { oldText: part.oldText })}
              newText={part.newText}
              {...(part.truncated ? { truncated: true } : {})}
              labels={{ region: t("diffRegion", { path: showHiddenCharacters(part.path) }), summary: (lines) => t("diffSummary", { lines }), truncated: t("truncated"), empty: t("noChanges"), uncompared: t("diffUncompared") }}
            />
          ) : part.type === "text" ? (
            <pre key={index} className="approval-card__arguments" role="region" aria-label={t("command")} tabIndex={0}>
              <code>{showHiddenCharacters(part.text)}</code>
            </pre>
          ) : null,
        )}
        {call?.locations && call.locations.length > 0 && (
          <ul aria-label={t("locations")} className="approval-card__locations">
            {call.locations.map((location, index) => (
              <li key={index}>
                <bdi>{showHiddenCharacters(location.path)}</bdi>
                {location.line !== undefined ? `:${location.line}` : ""}
              </li>
            ))}
          </ul>
        )}
        <details>
          <summary>{t("rawInput")}</summary>
          <pre className="approval-card__arguments" tabIndex={0}>
            <code>{showHiddenCharacters(approval.arguments)}</code>
          </pre>
        </details>
        {rejecting !== null && (
          <>
            <label htmlFor={reasonId} className="approval-card__reason-label">
              {t("reasonLabel")}
            </label>
            <textarea id={reasonId} className="composer-card__field approval-card__reason" rows={2} placeholder={t("reasonPlaceholder", { title })} value={reason} disabled={busy} autoFocus onChange={(event) => setReason(event.target.value)} />
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
        <div className="approval-card__actions" ref={actionsRef}>
          {rejecting !== null ? (
            <>
              <button
                type="button"
                className="composer-card__button"
                disabled={busy}
                // The options come back with the focus on the reject Back undid.
                onClick={() => focusAfterRender(() => [...(actionsRef.current?.querySelectorAll("button") ?? [])].find((button) => button.textContent === showHiddenCharacters(rejecting)), () => setRejecting(null))}
              >
                {t("back")}
              </button>
              <button type="button" className="composer-card__button composer-card__button--danger" data-action="deny" disabled={busy} onClick={() => void send(rejecting, reason)}>
                {showHiddenCharacters(rejecting)}
              </button>
            </>
          ) : (
            approval.choices.map((label, index) => (
              <button
                key={label}
                type="button"
                className={`composer-card__button${index === 0 ? " composer-card__button--primary" : rejects.has(label) ? " composer-card__button--danger" : ""}`}
                data-action={index === 0 ? "allow-once" : undefined}
                disabled={busy}
                onClick={() => (rejects.has(label) ? setRejecting(label) : void send(label))}
              >
                {showHiddenCharacters(label)}
              </button>
            ))
          )}
        </div>
      </div>
    </section>
  );
}
