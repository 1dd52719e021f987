import { useId, useState } from "react";
import { useCopy } from "../i18n/i18n";
import { QuestionOrigin, type QuestionItem, type ToolApproval } from "../protocol/schemas";
import { demoCopy } from "./copy";
import type { PlaygroundResult, RequestParts } from "./playground";
import { problemCount } from "./story-frame";
import { boundOf, optionLines, recommend, recommendedIndex, withOptionLines } from "./story-args";

type OriginKind = QuestionOrigin["kind"];

/** Every kind of asker the protocol names; a kind added there shows here as itself until it has a name in the copy. */
const ORIGIN_KINDS = QuestionOrigin.shape.kind.options as readonly OriginKind[];
const ORIGIN_KEYS: Partial<Record<string, "askerAgent" | "askerMcpClient" | "askerMcpServer" | "askerAcpAgent">> = {
  agent: "askerAgent",
  "mcp-client": "askerMcpClient",
  "mcp-server": "askerMcpServer",
  "acp-agent": "askerAcpAgent",
};
const NUMBER_KINDS = new Set(["number", "integer"]);

interface KnobsProps {
  /** The arguments to edit, or the problems of an edit that cannot be read (an address edited by hand). */
  knobs: PlaygroundResult;
  edited: boolean;
  onChange: (parts: RequestParts) => void;
  onReset: () => void;
}

/** Storybook's Controls for one story: its first request's content as a form. Every change reaches the preview and the address. */
export function StoryKnobs({ knobs, edited, onChange, onReset }: KnobsProps) {
  const t = useCopy(demoCopy);
  if (knobs.kind === "errors") return <EditProblems errors={knobs.errors} onReset={onReset} />;
  const { parts } = knobs;
  const setQuestion = (index: number, question: QuestionItem) => onChange({ ...parts, questions: parts.questions.map((item, at) => (at === index ? question : item)) });
  return (
    <section className="demo__knobs" aria-labelledby="demo-knobs-heading">
      <KnobsToolbar onReset={onReset} edited={edited} />
      <p className="demo__playground-hint" role="status">
        {edited ? t("knobsEdited") : t("knobsHint")}
      </p>
      <div className="demo__knob-groups">
        {parts.approval ? (
          <ApprovalKnobs approval={parts.approval} onChange={(approval) => onChange({ ...parts, approval, origin: approvalOrigin(parts.origin, approval) })} />
        ) : (
          <>
            <AskerKnobs origin={parts.origin} onChange={(origin) => onChange(withOrigin(parts, origin))} />
            {parts.questions.map((question, index) => (
              <QuestionKnobs key={index} number={index + 1} question={question} onChange={(next) => setQuestion(index, next)} />
            ))}
          </>
        )}
      </div>
    </section>
  );
}

/** The Controls' heading and Reset, which is offered once the story was edited. */
function KnobsToolbar({ onReset, edited }: { onReset: () => void; edited: boolean }) {
  const t = useCopy(demoCopy);
  return (
    <div className="demo__panel-toolbar">
      <h2 id="demo-knobs-heading" className="demo__section-title">
        {t("knobsHeading")}
      </h2>
      <button type="button" className="demo__button" onClick={onReset} disabled={!edited}>
        {t("knobsReset")}
      </button>
    </div>
  );
}

/** An edit the address carries that cannot be read: its problems, and Reset to go back to the story. */
function EditProblems({ errors, onReset }: { errors: readonly { path: string; message: string }[]; onReset: () => void }) {
  const t = useCopy(demoCopy);
  return (
    <section className="demo__knobs" aria-labelledby="demo-knobs-heading">
      <KnobsToolbar onReset={onReset} edited />
      <div className="demo__playground-hint" role="alert">
        <p>
          {t("knobsUnreadable")} {problemCount(t, errors.length)}
        </p>
        <ul>
          {errors.map((error, index) => (
            <li key={index}>
              <code>{error.path === "" ? t("playgroundRoot") : error.path}</code>: {error.message}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** Who asks an edited approval: an ACP agent stays one, titled by the server field (the host puts the agent's title there); else the MCP server it names. */
function approvalOrigin(before: QuestionOrigin | undefined, approval: ToolApproval): QuestionOrigin {
  return before?.kind === "acp-agent" ? { ...before, title: approval.server } : { kind: "mcp-server", name: approval.server };
}

function withOrigin(parts: RequestParts, origin: QuestionOrigin | undefined): RequestParts {
  const { origin: _before, ...rest } = parts;
  return origin ? { ...rest, origin } : rest;
}

function TextKnob({ label, value, onChange, multiline = false, rows = 2 }: { label: string; value: string; onChange: (value: string) => void; multiline?: boolean; rows?: number }) {
  const id = useId();
  return (
    <div className="demo__knob">
      <label htmlFor={id} className="demo__control-label">
        {label}
      </label>
      {multiline ? (
        <textarea id={id} className="demo__knob-field" rows={rows} value={value} spellCheck={false} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input id={id} className="demo__knob-field" value={value} spellCheck={false} onChange={(event) => onChange(event.target.value)} />
      )}
    </div>
  );
}

/**
 * The options, one label per line. The text stays as typed (a space at a line's end, a new empty line) while it names
 * the options shown; options changed from elsewhere (Reset, the Recommended knob) replace it.
 */
function OptionsKnob({ labels, onChange }: { labels: readonly string[]; onChange: (text: string) => void }) {
  const t = useCopy(demoCopy);
  const [typed, setTyped] = useState(() => labels.join("\n"));
  const named = optionLines(typed);
  const current = named.length === labels.length && named.every((label, index) => label === labels[index]);
  return (
    <TextKnob
      label={t("knobOptions")}
      value={current ? typed : labels.join("\n")}
      multiline
      rows={Math.min(Math.max(labels.length, 2), 8)}
      onChange={(text) => {
        setTyped(text);
        onChange(text);
      }}
    />
  );
}

function NumberKnob({ label, value, onChange }: { label: string; value: number | undefined; onChange: (value: number | undefined) => void }) {
  const id = useId();
  return (
    <div className="demo__knob demo__knob--number">
      <label htmlFor={id} className="demo__control-label">
        {label}
      </label>
      <input id={id} className="demo__knob-field" type="number" value={value ?? ""} onChange={(event) => onChange(boundOf(event.target.value))} />
    </div>
  );
}

function CheckKnob({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="demo__knob demo__knob--check">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

/** Sets or removes an optional field. */
function put<T extends object, K extends keyof T>(object: T, key: K, value: T[K] | undefined): T {
  const next = { ...object };
  if (value === undefined || value === "") delete next[key];
  else next[key] = value;
  return next;
}

function AskerKnobs({ origin, onChange }: { origin: QuestionOrigin | undefined; onChange: (origin: QuestionOrigin | undefined) => void }) {
  const t = useCopy(demoCopy);
  const id = useId();
  const kind = origin?.kind ?? "agent";
  return (
    <fieldset className="demo__knob-group">
      <legend className="demo__knob-legend">{t("knobAsker")}</legend>
      <div className="demo__knob">
        <label htmlFor={id} className="demo__control-label">
          {t("knobAsker")}
        </label>
        <select
          id={id}
          className="demo__knob-field"
          value={kind}
          onChange={(event) => {
            const next = event.target.value as OriginKind;
            onChange(next === "agent" ? undefined : { kind: next, name: origin?.name ?? (next === "mcp-server" ? "deploy" : "Claude Code") });
          }}
        >
          {ORIGIN_KINDS.map((option) => {
            const key = ORIGIN_KEYS[option];
            return (
              <option key={option} value={option}>
                {key ? t(key) : option}
              </option>
            );
          })}
        </select>
      </div>
      {origin && origin.kind !== "agent" && <TextKnob label={t("knobAskerName")} value={origin.name} onChange={(name) => onChange({ ...origin, name })} />}
    </fieldset>
  );
}

function ApprovalKnobs({ approval, onChange }: { approval: ToolApproval; onChange: (approval: ToolApproval) => void }) {
  const t = useCopy(demoCopy);
  return (
    <fieldset className="demo__knob-group">
      <legend className="demo__knob-legend">{t("playgroundInputApproval")}</legend>
      <TextKnob label={t("knobServer")} value={approval.server} onChange={(server) => onChange({ ...approval, server })} />
      <TextKnob label={t("knobTool")} value={approval.tool} onChange={(tool) => onChange({ ...approval, tool })} />
      <TextKnob label={t("knobArguments")} value={approval.arguments} multiline rows={4} onChange={(text) => onChange({ ...approval, arguments: text })} />
      {/* An ACP agent's options say what they do; destructiveHint is an MCP server's word for its tool. */}
      {!approval.choices && <CheckKnob label={t("knobDestructive")} checked={approval.destructive === true} onChange={(checked) => onChange(put(approval, "destructive", checked || undefined))} />}
    </fieldset>
  );
}

function QuestionKnobs({ number, question, onChange }: { number: number; question: QuestionItem; onChange: (question: QuestionItem) => void }) {
  const t = useCopy(demoCopy);
  const recommendedId = useId();
  const options = question.options ?? [];
  const input = question.input;
  const setInput = (key: "minLength" | "maxLength" | "minimum" | "maximum", value: number | undefined) => input && onChange({ ...question, input: put(input, key, value) });
  return (
    <fieldset className="demo__knob-group">
      <legend className="demo__knob-legend">{t("knobQuestion", { n: number })}</legend>
      <TextKnob label={t("knobQuestionText")} value={question.question} multiline onChange={(text) => onChange({ ...question, question: text })} />
      <TextKnob label={t("knobHeader")} value={question.header ?? ""} onChange={(text) => onChange(put(question, "header", text))} />
      <TextKnob label={t("knobDetail")} value={question.detail ?? ""} multiline onChange={(text) => onChange(put(question, "detail", text))} />
      <OptionsKnob labels={options.map((option) => option.label)} onChange={(text) => onChange(withOptionLines(question, text))} />
      {options.length > 0 && (
        <div className="demo__knob">
          <label htmlFor={recommendedId} className="demo__control-label">
            {t("knobRecommended")}
          </label>
          <select id={recommendedId} className="demo__knob-field" value={recommendedIndex(question)} onChange={(event) => onChange(recommend(question, Number(event.target.value)))}>
            <option value={-1}>{t("knobNone")}</option>
            {options.map((option, index) => (
              <option key={index} value={index}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="demo__knob-row">
        {options.length > 0 && <CheckKnob label={t("knobMultiSelect")} checked={question.multiSelect === true} onChange={(checked) => onChange(put(question, "multiSelect", checked || undefined))} />}
        <CheckKnob label={t("knobRequired")} checked={question.required === true} onChange={(checked) => onChange(put(question, "required", checked || undefined))} />
      </div>
      {question.multiSelect && (
        <div className="demo__knob-row">
          <NumberKnob label={t("knobMinSelected")} value={question.minSelected} onChange={(value) => onChange(put(question, "minSelected", value))} />
          <NumberKnob label={t("knobMaxSelected")} value={question.maxSelected} onChange={(value) => onChange(put(question, "maxSelected", value))} />
        </div>
      )}
      {input && !NUMBER_KINDS.has(input.kind) && (
        <div className="demo__knob-row">
          <NumberKnob label={t("knobMinLength")} value={input.minLength} onChange={(value) => setInput("minLength", value)} />
          <NumberKnob label={t("knobMaxLength")} value={input.maxLength} onChange={(value) => setInput("maxLength", value)} />
        </div>
      )}
      {input && NUMBER_KINDS.has(input.kind) && (
        <div className="demo__knob-row">
          <NumberKnob label={t("knobMinimum")} value={input.minimum} onChange={(value) => setInput("minimum", value)} />
          <NumberKnob label={t("knobMaximum")} value={input.maximum} onChange={(value) => setInput("maximum", value)} />
        </div>
      )}
    </fieldset>
  );
}
