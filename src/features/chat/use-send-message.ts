import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from "react";
import { useCopy } from "../../i18n/i18n";
import { describeFailure } from "./failure";
import { chatCopy } from "./copy";
import { keepDraft } from "./use-draft-text";

/** The key of the draft a new chat types into; the session it creates takes the draft over. */
export const NEW_CHAT_DRAFT = "";

/**
 * Why a send failed, per draft key, for a send that failed after the user moved to another chat: its text went back
 * into that chat's box, and this is said when the user comes back to it (once).
 */
const unseenFailures = new Map<string, string>();

/** The sent text put back in front of whatever was typed while it was in flight. */
export function restoreSent(sent: string, typedSince: string): string {
  return typedSince === "" ? sent : `${sent}\n${typedSince}`;
}

export interface SendMessageOptions {
  /** Which draft the text belongs to; the text is kept per key in `drafts`. */
  draftKey: string;
  drafts: Map<string, string>;
  /** What the box holds, and how to replace it. */
  text: string;
  setText: (text: string) => void;
  /** Whether the text may go out (nothing blocks it and it is not blank), whatever is in flight. */
  ready: boolean;
  /** Sends the text; a rejection puts the text back and says what happened. */
  onSend: (text: string) => Promise<void>;
  formRef: RefObject<HTMLFormElement | null>;
  /** Gets the focus back after a send, unless the user moved it elsewhere meanwhile. */
  inputRef: RefObject<HTMLTextAreaElement | null>;
}

/**
 * Sends the composer's text. The box is cleared the moment a message is sent, so text typed while
 * the request is in flight stays; a send asked for meanwhile waits until the request is through,
 * unless `dropQueued` is called first (the text changed). A failure puts the sent text back in
 * front of what was typed since and reads as `error`.
 */
export function useSendMessage({ draftKey, drafts, text, setText, ready, onSend, formRef, inputRef }: SendMessageOptions) {
  const t = useCopy(chatCopy);
  const [sending, setSending] = useState(false);
  // An Enter while the previous message is still in flight: it sends once that one is through.
  const [queued, setQueued] = useState(false);
  const [error, setError] = useState<string | null>(() => unseenFailures.get(draftKey) ?? null);
  const keyRef = useRef(draftKey);
  useLayoutEffect(() => {
    keyRef.current = draftKey;
  }, [draftKey]);

  const [shownKey, setShownKey] = useState(draftKey);
  if (shownKey !== draftKey) {
    // A new chat's first send moves its text to the session it created; leaving any other chat drops a waiting Enter.
    if (shownKey !== NEW_CHAT_DRAFT) setQueued(false);
    setShownKey(draftKey);
    setError(unseenFailures.get(draftKey) ?? null);
  }
  // Said once: forgotten once the chat it belongs to is shown.
  useEffect(() => {
    unseenFailures.delete(draftKey);
  }, [draftKey]);

  const canSend = !sending && ready;

  const send = async () => {
    if (sending && ready) {
      setQueued(true);
      return;
    }
    setQueued(false);
    if (!canSend) return;
    const sent = text;
    const sentKey = draftKey;
    setSending(true);
    setError(null);
    setText("");
    keepDraft(drafts, sentKey, "");
    try {
      await onSend(sent);
      const active = document.activeElement;
      if (active === document.body || formRef.current?.contains(active)) inputRef.current?.focus();
    } catch (failure) {
      setQueued(false);
      // A new chat's draft moved to the session it created; anywhere else the text goes back where it was typed.
      const targetKey = sentKey === NEW_CHAT_DRAFT ? keyRef.current : sentKey;
      const restored = restoreSent(sent, drafts.get(targetKey) ?? "");
      keepDraft(drafts, targetKey, restored);
      const said = t("sendFailed", { reason: describeFailure(failure, t) });
      if (targetKey === keyRef.current) {
        setText(restored);
        setError(said);
      } else unseenFailures.set(targetKey, said);
    } finally {
      setSending(false);
    }
  };

  const sendLatest = useRef(send);
  useLayoutEffect(() => {
    sendLatest.current = send;
  });
  useEffect(() => {
    if (queued && !sending) void sendLatest.current();
  }, [queued, sending]);

  const dropQueued = () => setQueued(false);

  return { canSend, error, send, dropQueued };
}
