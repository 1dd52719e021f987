import { useEffect, useReducer } from "react";
import { useCopy } from "../../i18n/i18n";
import { describeFailure } from "./failure";
import { chatCopy } from "./copy";
import { DEMO_MODEL, type HostFacts } from "./host-facts";

/** A sample batch for the demo model's `/ask`: one single-select and one multi-select. */
export const SAMPLE_ASK = `/ask ${JSON.stringify({
  questions: [
    {
      id: "tour",
      header: "First look",
      question: "What would you like to try first?",
      options: [{ label: "The question panel (Recommended)", description: "Pick with 1–9 or a click; Enter goes on." }, { label: "A plan review" }, { label: "A tool approval" }],
    },
    { id: "keys", header: "Keys", question: "Which keys do you use most?", multi_select: true, options: [{ label: "Enter" }, { label: "Tab" }, { label: "Alt+Q" }] },
  ],
})}`;

/** A sample plan for the demo model's `/plan`. */
export const SAMPLE_PLAN = "/plan ## Try Parley\n1. Answer a batch of questions with the keyboard.\n2. Approve or refuse this plan.\n3. Open /demo to see every state of the panel.";

/**
 * The starter being sent and why the last one was not: kept beside the screen, which is made again as a new chat becomes
 * its session while the starter is still on its way, so a second press then still waits and a failure still shows.
 */
const starter: { sending: Promise<void> | null; failed: string | null } = { sending: null, failed: null };

export interface FirstScreenProps {
  /** The agent of this chat; the screen then says it waits for it (an outside agent) or for a first message (an ACP agent, `acp`). */
  agentName?: string | undefined;
  acp?: boolean;
  facts: HostFacts | null;
  /** Sends a starter as the first message; rejects when it could not be sent. */
  onStart: (text: string) => Promise<void>;
  /** Puts a starter into the composer for the user to finish. */
  onFill: (text: string) => void;
}

/**
 * An empty chat's screen: with the demo model, that it is one and starters to try (a sample `/ask`,
 * `/plan`, `/tool` of each ready MCP server) and the way to /demo; with a real model, what Parley does.
 */
export function FirstScreen({ agentName, acp = false, facts, onStart, onFill }: FirstScreenProps) {
  const t = useCopy(chatCopy);
  const [, refresh] = useReducer((count: number) => count + 1, 0);
  const sending = starter.sending;
  const failed = starter.failed;
  // The screen is made again as a new chat becomes a session: the one showing then hears the starter's end.
  useEffect(() => {
    let shown = true;
    void sending?.then(() => shown && refresh());
    return () => {
      shown = false;
    };
  }, [sending]);
  /** One starter at a time: a double click sends it once; one that fails says why, and the starters can be tried again. */
  const start = (text: string) => {
    if (starter.sending) return;
    starter.failed = null;
    starter.sending = onStart(text)
      .catch((error: unknown) => void (starter.failed = t("starterFailed", { reason: describeFailure(error, t) })))
      .finally(() => void (starter.sending = null));
    refresh();
  };
  if (agentName !== undefined) {
    return (
      <div className="transcript__empty first-screen">
        <p className="transcript__empty-title">{t("emptyTitle")}</p>
        <p dir="auto">{t(acp ? "acpEmpty" : "agentEmpty", { name: agentName })}</p>
      </div>
    );
  }
  const demo = facts?.model === DEMO_MODEL;
  return (
    <div className="transcript__empty first-screen" data-model={demo ? "demo" : facts === null ? "unknown" : "real"}>
      <p className="transcript__empty-title">{t("emptyTitle")}</p>
      {demo ? (
        <>
          <p>{t("firstDemoModel")}</p>
          <ul className="first-screen__starters" aria-label={t("startersLabel")}>
            <li>
              <button type="button" className="first-screen__starter" aria-disabled={sending !== null} onClick={() => start(SAMPLE_ASK)}>
                {t("starterAsk")}
              </button>
            </li>
            <li>
              <button type="button" className="first-screen__starter" aria-disabled={sending !== null} onClick={() => start(SAMPLE_PLAN)}>
                {t("starterPlan")}
              </button>
            </li>
            {facts.servers.map((server) => (
              <li key={server}>
                <button type="button" className="first-screen__starter" onClick={() => onFill(`/tool mcp__${server}__`)}>
                  {t("starterTool", { server })}
                </button>
              </li>
            ))}
          </ul>
          {failed !== null && (
            <p role="alert" className="first-screen__failed">
              {failed}
            </p>
          )}
          <p>
            <a href="/demo" className="first-screen__demo">
              {t("starterDemo")}
            </a>
          </p>
        </>
      ) : (
        <p>{facts === null ? t("emptyHint") : t("firstRealModel")}</p>
      )}
    </div>
  );
}
