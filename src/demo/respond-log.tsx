import { useEffect, useRef, useState } from "react";
import { useLocale, useCopy } from "../i18n/i18n";
import type { RespondRequest } from "../protocol/schemas";
import type { SendResult } from "./frame-messages";
import { demoCopy } from "./copy";
import { storyFromHash } from "./stories";

/** One body the panel sent to the fake host, newest first in the log. */
export interface LogEntry {
  id: string;
  storyId: string;
  body: RespondRequest;
  result: SendResult;
}

type CopyState = "idle" | "copied" | "fallback";

function ResultLine({ result }: { result: SendResult }) {
  const t = useCopy(demoCopy);
  switch (result.kind) {
    case "pending":
      return <>{t("statusPending")}</>;
    case "network-error":
      return <>{t("statusNetworkError", { message: result.message })}</>;
    case "receipt":
      return result.receipt.accepted ? (
        <>{t("statusAccepted")}</>
      ) : (
        <>{t("statusRejected", { reason: result.receipt.reason, detail: result.receipt.detail })}</>
      );
    default:
      return result satisfies never;
  }
}

function LogItem({ entry, number }: { entry: LogEntry; number: number }) {
  const t = useCopy(demoCopy);
  const { locale } = useLocale();
  const [copy, setCopy] = useState<CopyState>("idle");
  const bodyRef = useRef<HTMLPreElement>(null);
  const headingId = `demo-log-${entry.id}`;

  const selectBody = () => {
    const selection = window.getSelection();
    if (bodyRef.current && selection) selection.selectAllChildren(bodyRef.current);
    setCopy("fallback");
  };

  const onCopy = async () => {
    const text = JSON.stringify(entry.body);
    if (!navigator.clipboard?.writeText) {
      selectBody();
      return;
    }
    try {
      await navigator.clipboard.writeText(text);
      setCopy("copied");
    } catch (error) {
      console.warn("clipboard write failed; showing the manual fallback", error);
      selectBody();
    }
  };

  return (
    <li className="demo__log-entry" aria-labelledby={headingId}>
      <div className="demo__log-head">
        <h3 id={headingId} className="demo__log-title">
          {t("logEntry", { n: number, type: entry.body.type, story: storyFromHash(entry.storyId).title[locale] })}
        </h3>
        <button type="button" className="demo__button" onClick={onCopy}>
          {t("copy")}
        </button>
        <p className="demo__log-copy" role="status">
          {copy === "copied" ? t("copied") : copy === "fallback" ? t("copyFallback") : ""}
        </p>
      </div>
      <pre ref={bodyRef} className="demo__log-body" tabIndex={0} aria-label={t("logEntry", { n: number, type: entry.body.type, story: entry.storyId })}>
        {JSON.stringify(entry.body, null, 2)}
      </pre>
      <p className="demo__log-result" data-kind={entry.result.kind}>
        <ResultLine result={entry.result} />
      </p>
    </li>
  );
}

/** Every `/api/respond` body the preview sent, newest first, each copyable. */
export function RespondLog({ entries, onClear }: { entries: LogEntry[]; onClear: () => void }) {
  const t = useCopy(demoCopy);
  const [open, setOpen] = useState(false);
  const entriesRef = useRef<HTMLDivElement>(null);
  // Opened at the foot of the page, the log scrolls into view: what it shows is below the preview and the controls.
  useEffect(() => {
    if (open) entriesRef.current?.scrollIntoView({ block: "nearest" });
  }, [open]);
  return (
    <section className="demo__log" aria-labelledby="demo-log-heading" data-open={open}>
      <div className="demo__log-toolbar">
        <h2 id="demo-log-heading" className="demo__section-title">
          {t("logHeading")}
        </h2>
        <button type="button" className="demo__button" aria-expanded={open} aria-controls="demo-log-entries" onClick={() => setOpen((value) => !value)}>
          {open ? t("hideLog") : t("showLog", { count: entries.length })}
        </button>
        {entries.length > 0 && (
          <button type="button" className="demo__button" onClick={onClear}>
            {t("clearLog")}
          </button>
        )}
      </div>
      <div id="demo-log-entries" ref={entriesRef} hidden={!open}>
        {entries.length === 0 ? (
          <p className="demo__log-empty">{t("logEmpty")}</p>
        ) : (
          <ol className="demo__log-list" reversed>
            {entries.map((entry, index) => (
              <LogItem key={entry.id} entry={entry} number={entries.length - index} />
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
