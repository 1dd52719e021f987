import { createContext, useCallback, useContext, type ReactNode } from "react";
import type { QuestionOrigin } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { questionCopy, type QuestionMessageKey } from "./copy";
import { ModelText } from "./model-text";

/** Who asks the panel's request; undefined is this chat's own agent, Parley's assistant. */
const AskerContext = createContext<QuestionOrigin | undefined>(undefined);

export const AskerProvider = AskerContext.Provider;

const SLOT = "\u0000";

/** The name an asker goes by: an ACP agent's title when it has one, else the name it gave; null for Parley's assistant. */
export function askerName(origin: QuestionOrigin | undefined): string | null {
  if (origin === undefined || origin.kind === "agent") return null;
  if (origin.kind === "acp-agent") return origin.title?.trim() || origin.name;
  return origin.name;
}

/** Whether the request comes from someone other than this chat's own agent. */
export function isOutsideAsker(origin: QuestionOrigin | undefined): boolean {
  return askerName(origin) !== null;
}

function around(text: string, middle: ReactNode): ReactNode {
  const at = text.indexOf(SLOT);
  if (at === -1) return text;
  return (
    <>
      {text.slice(0, at)}
      {middle}
      {text.slice(at + SLOT.length)}
    </>
  );
}

/**
 * `say(key, values)`: a sentence of the panel's copy with `{asker}` replaced by who asks (Parley's
 * assistant, an outside agent or ACP agent by its name, or an MCP server by its name), the name
 * isolated as outside-written text.
 */
export function useAskerSentence(): (key: QuestionMessageKey, values?: Record<string, string | number>) => ReactNode {
  const t = useCopy(questionCopy);
  const origin = useContext(AskerContext);
  return useCallback(
    (key, values) => {
      const sentence = t(key, { ...values, asker: SLOT });
      const name = askerName(origin);
      const startsWith = sentence.startsWith(SLOT);
      const phrase =
        name === null ? t("askerAssistant") : origin?.kind === "mcp-server" ? t(startsWith ? "askerServerStart" : "askerServer", { name: SLOT }) : SLOT;
      return around(sentence, around(phrase, name === null ? null : <ModelText text={name} />));
    },
    [t, origin],
  );
}
