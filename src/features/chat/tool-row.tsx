import { Fragment, memo, Suspense, useId, useState } from "react";
import type { ToolCall } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { parseRecommendation } from "../../protocol/recommendation";
import { showHiddenCharacters as shown } from "../../protocol/hidden-characters";
import { Markdown } from "../../ui/markdown";
import { chatCopy, type ChatKey } from "./copy";
// The details' styles stay in the first screen's stylesheet, in the order the row's rules expect.
import "./mcp-tool-details.css";
import { ASK_TOOL, PLAN_TOOL, askedQuestions, rejectedCall, reviewedPlan, summariseTool, type AskedQuestion, type ToolSummary } from "./tool-summary";
import { lazyModule } from "../../ui/lazy-module";

/** An MCP call's details (arguments, content, media) load the first time a row shows them. */
const McpToolDetails = lazyModule(() => import("./mcp-tool-details")).component((module) => module.McpToolDetails);

type T = (key: ChatKey, values?: Record<string, string | number>) => string;

function summaryText(summary: ToolSummary, t: T): string {
  switch (summary.state) {
    case "running":
      return t("toolRunning");
    case "waiting":
      return t("toolWaiting");
    case "answered":
      return t("toolAnswered", { answered: summary.answered, total: summary.total });
    case "cancelled":
      return t("toolCancelled");
    case "interrupted":
      return t("toolInterrupted");
    case "failed":
      return t("toolFailed", { code: summary.code });
    case "approved":
      return t("planApproved");
    case "feedback":
      return t("planFeedback");
    case "awaiting-approval":
      return t("toolAwaitingApproval");
    case "denied":
      return t("toolDenied");
    case "done":
      return t("toolDone");
    default:
      summary satisfies never;
      return "";
  }
}

/** A chosen option as the panel showed it: a recommended one without its suffix, with a Recommended badge. */
function ChosenLabel({ label, t }: { label: string; t: T }) {
  const { display, recommended } = parseRecommendation(label);
  if (!recommended) return <bdi>{shown(label)}</bdi>;
  return (
    <>
      <bdi>{shown(display)}</bdi> <span className="tool-row__badge">{t("recommended")}</span>
    </>
  );
}

function AnswerText({ answer, t }: { answer: AskedQuestion["answer"]; t: T }) {
  switch (answer.kind) {
    case "none":
      return <span className="tool-row__muted">{t("answerNone")}</span>;
    case "skipped":
      return <span className="tool-row__muted">{t("answerSkipped")}</span>;
    case "answered":
      return (
        <span>
          {answer.selected.map((label, index) => (
            <Fragment key={index}>
              {index > 0 && ", "}
              <ChosenLabel label={label} t={t} />
            </Fragment>
          ))}
          {answer.custom !== undefined && (
            <>
              {answer.selected.length > 0 && ", "}
              <bdi>{shown(answer.custom)}</bdi>
            </>
          )}
        </span>
      );
    default:
      answer satisfies never;
      return null;
  }
}

function ToolDetails({ tool, t }: { tool: ToolCall; t: T }) {
  if (tool.mcp) {
    return (
      <Suspense fallback={null}>
        <McpToolDetails tool={tool} mcp={tool.mcp} />
      </Suspense>
    );
  }
  const rejected = rejectedCall(tool);
  if (rejected) {
    return (
      <div className="tool-row__rejected">
        <p>{t("callRejected")}</p>
        <pre className="tool-row__raw" dir="auto">{shown(`${rejected.code}: ${rejected.message}`)}</pre>
      </div>
    );
  }
  if (tool.name === ASK_TOOL) {
    return (
      <dl className="tool-row__answers">
        {askedQuestions(tool).map((item) => (
          <div key={item.id} className="tool-row__answer">
            <dt>
              {item.header && (
                <span className="tool-row__header" dir="auto">
                  {shown(item.header)}
                </span>
              )}
              <bdi>{shown(item.question)}</bdi>
            </dt>
            <dd>
              <AnswerText answer={item.answer} t={t} />
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  if (tool.name === PLAN_TOOL) {
    const reviewed = reviewedPlan(tool);
    return (
      <div className="tool-row__plan">
        {reviewed && <Markdown text={reviewed.plan} wrap />}
        {reviewed?.feedback && (
          <p>
            <strong>{t("answerFeedback")}:</strong> <bdi>{shown(reviewed.feedback)}</bdi>
          </p>
        )}
        {reviewed?.note && (
          <p>
            <strong>{t("answerNote")}:</strong> <bdi>{shown(reviewed.note)}</bdi>
          </p>
        )}
      </div>
    );
  }
  return <pre className="tool-row__raw" dir="auto">{shown(tool.error ? `${tool.error.code}: ${tool.error.message}` : (tool.result ?? ""))}</pre>;
}

/** A pending ask's first question (and how many follow), so two calls that wait side by side are told apart. */
function FirstQuestion({ tool, t }: { tool: ToolCall; t: T }) {
  const questions = askedQuestions(tool);
  const first = questions[0];
  if (!first) return null;
  return (
    <span className="tool-row__first">
      <bdi>{shown(first.question)}</bdi>
      {questions.length > 1 && <span className="tool-row__more"> {t("toolMoreQuestions", { count: questions.length - 1 })}</span>}
    </span>
  );
}

/**
 * Why an interrupted row ended where it did (docs/protocol.md, tool-interrupted): answered, dismissed or denied before its
 * host stopped, allowed and then stopped while the call ran, or stopped before anyone answered.
 */
function hostStoppedNote(tool: ToolCall): "toolAnsweredHostStopped" | "toolDismissedHostStopped" | "toolDeniedHostStopped" | "toolAllowedHostStopped" | "toolHostStopped" {
  if (tool.status === "ok") return "toolAnsweredHostStopped";
  const code = tool.error?.code;
  if (code === "ASK_CANCELLED") return "toolDismissedHostStopped";
  if (code === "TOOL_DENIED") return "toolDeniedHostStopped";
  if (code === "TOOL_INTERRUPTED") return "toolAllowedHostStopped";
  return "toolHostStopped";
}

/** A transcript row for a tool call; expandable once the call has ended. `interrupted`: the host running the call stopped (Message.interrupted). */
export const ToolRow = memo(function ToolRow({ tool, interrupted = false }: { tool: ToolCall; interrupted?: boolean }) {
  const t = useCopy(chatCopy);
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const summary = summariseTool(tool);
  const title = tool.name === ASK_TOOL ? t("askQuestion") : tool.name === PLAN_TOOL ? t("planReview") : tool.name;
  const expandable = tool.status !== "running" || tool.mcp !== undefined;
  const line = (
    <>
      {tool.mcp ? (
        <span className="tool-row__title">
          <bdi>{shown(tool.mcp.server)}</bdi> · <bdi>{shown(tool.mcp.tool)}</bdi>
        </span>
      ) : (
        <bdi className="tool-row__title">{shown(title)}</bdi>
      )}
      {summary.state === "waiting" && tool.name === ASK_TOOL && <FirstQuestion tool={tool} t={t} />}
      <span className="tool-row__summary" data-state={summary.state}>
        {summaryText(summary, t)}
      </span>
    </>
  );
  return (
    <div className="tool-row" data-state={summary.state}>
      {expandable ? (
        <button type="button" className="tool-row__toggle" aria-expanded={open} aria-controls={detailsId} onClick={() => setOpen((value) => !value)}>
          <span className="tool-row__chevron" aria-hidden="true">
            {open ? "▾" : "▸"}
          </span>
          {line}
        </button>
      ) : (
        <div className="tool-row__line">{line}</div>
      )}
      {interrupted && <p className="tool-row__note">{t(hostStoppedNote(tool))}</p>}
      {expandable && (
        <div id={detailsId} className="tool-row__details" hidden={!open}>
          {open && <ToolDetails tool={tool} t={t} />}
        </div>
      )}
    </div>
  );
});
