import type { AcpRowData, AcpToolContent, Message } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { AnsiText } from "../../ui/ansi-text";
import { DiffView } from "../../ui/diff-view";
import { showHiddenCharacters } from "../../protocol/hidden-characters";
import { acpCopy } from "./acp-copy";
import { AcpSessionRow } from "./acp-session-row";
import "./acp-rows.css";

type ToolData = Extract<AcpRowData, { type: "tool" }>;
type PlanData = Extract<AcpRowData, { type: "plan" }>;

const ESCAPE = "\u001b";

function ContentPart({ part }: { part: AcpToolContent }) {
  const t = useCopy(acpCopy);
  switch (part.type) {
    case "diff":
      return (
        <DiffView
          path={part.path}
          {...(part.oldText === undefined ? {} : { oldText: part.oldText })}
          newText={part.newText}
          {...(part.truncated ? { truncated: true } : {})}
          labels={{ region: t("diffRegion", { path: showHiddenCharacters(part.path) }), summary: (lines) => t("diffSummary", { lines }), truncated: t("truncated"), empty: t("noChanges"), uncompared: t("diffUncompared") }}
        />
      );
    case "text":
      return part.text.includes(ESCAPE) ? (
        <AnsiText text={part.text} label={t("output")} />
      ) : (
        <pre className="acp-row__text" tabIndex={0} role="region" aria-label={t("output")}>
          {showHiddenCharacters(part.text)}
        </pre>
      );
    case "other":
      return <p className="acp-row__other">{showHiddenCharacters(part.label)}</p>;
    default:
      part satisfies never;
      return null;
  }
}

/**
 * An ACP agent's tool call: title, kind, status and locations, its content (diffs, terminal output) below; open while it
 * runs or shows a diff. A call the turn ended before (the row `stopped`) reads stopped, whatever the agent last said of it,
 * with a note when its host stopped (Message.interrupted).
 */
export function AcpToolRow({ data, message }: { data: ToolData; message: Message }) {
  const t = useCopy(acpCopy);
  const { call } = data;
  const stopped = message.tool?.status === "stopped";
  const status = stopped ? "stopped" : data.status;
  const hasDiff = call.content?.some((part) => part.type === "diff") ?? false;
  return (
    <details className="acp-row acp-row--tool" data-status={status} open={hasDiff || status === "in_progress" || status === "pending"}>
      <summary>
        <span className="acp-row__title">{showHiddenCharacters(call.title)}</span>{" "}
        <span className="acp-row__meta">{t("toolStatus", { kind: call.kind ?? "other", status: stopped ? t("toolStopped") : status })}</span>
      </summary>
      {message.interrupted && <p className="acp-row__note">{t("toolHostStopped")}</p>}
      {call.locations && call.locations.length > 0 && (
        <ul className="acp-row__locations">
          {call.locations.map((location, index) => (
            <li key={index}>
              <bdi>{showHiddenCharacters(location.path)}</bdi>
              {location.line !== undefined ? `:${location.line}` : ""}
            </li>
          ))}
        </ul>
      )}
      {call.content?.map((part, index) => <ContentPart key={index} part={part} />)}
    </details>
  );
}

const PLAN_MARKS: Record<string, string> = { completed: "✓", in_progress: "◐", pending: "○" };

/** The agent's plan as a checklist, updated in place. */
export function AcpPlanRow({ data }: { data: PlanData }) {
  const t = useCopy(acpCopy);
  return (
    <section className="acp-row acp-row--plan" aria-label={t("plan")}>
      <h2 className="acp-row__heading">{t("plan")}</h2>
      <ul className="acp-row__plan">
        {data.entries.map((entry, index) => (
          <li key={index} data-status={entry.status}>
            <span aria-hidden="true" className="acp-row__mark">
              {PLAN_MARKS[entry.status] ?? "○"}
            </span>{" "}
            <span>{showHiddenCharacters(entry.content)}</span> <span className="acp-row__meta">({t("planStatus", { status: entry.status.replace("_", " ") })})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A row an ACP agent's session update made (docs/protocol.md, acp-rows): a tool call, a folded thought, the plan or the session line. */
export function AcpRow({ message, data }: { message: Message; data: AcpRowData }) {
  const t = useCopy(acpCopy);
  switch (data.type) {
    case "tool":
      return <AcpToolRow data={data} message={message} />;
    case "thought":
      return (
        <details className="acp-row acp-row--thought">
          <summary>{t("thinking")}</summary>
          <p className="acp-row__thought" dir="auto">
            {showHiddenCharacters(data.text)}
          </p>
        </details>
      );
    case "plan":
      return <AcpPlanRow data={data} />;
    case "session":
      return <AcpSessionRow data={data} />;
    default:
      data satisfies never;
      return null;
  }
}
