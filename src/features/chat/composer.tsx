import { useId, useRef, useState, type KeyboardEvent } from "react";
import { LIMITS } from "../../protocol/schemas";
import { useMessages } from "../../i18n/i18n";
import { Button } from "../../ui/button";
import { createImeGuard } from "../../ui/ime";
import { chatMessages } from "./messages";

export interface ComposerProps {
  /** Which draft the text belongs to (the session id); the text is kept per key in `drafts`. */
  draftKey: string;
  drafts: Map<string, string>;
  /** Why sending is not possible now (a turn is running), or null. */
  blockedReason: string | null;
  /** Sends the text; a rejection keeps the text and shows the error. */
  onSend: (text: string) => Promise<void>;
}

/** The normal composer: Enter sends, Shift+Enter is a newline, IME-safe. */
export function Composer({ draftKey, drafts, blockedReason, onSend }: ComposerProps) {
  const t = useMessages(chatMessages);
  const [text, setText] = useState(() => drafts.get(draftKey) ?? "");
  const [shownKey, setShownKey] = useState(draftKey);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [imeGuard] = useState(createImeGuard);
  const formRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const reasonId = useId();

  if (shownKey !== draftKey) {
    setShownKey(draftKey);
    setText(drafts.get(draftKey) ?? "");
    setError(null);
  }

  const tooLong = text.length > LIMITS.messageChars;
  const reason = blockedReason ?? (tooLong ? t("messageTooLong", { count: text.length, max: LIMITS.messageChars }) : null);
  const canSend = !sending && reason === null && text.trim() !== "";

  const update = (next: string) => {
    setText(next);
    if (next === "") drafts.delete(draftKey);
    else drafts.set(draftKey, next);
  };

  const send = async () => {
    if (!canSend) return;
    setSending(true);
    setError(null);
    try {
      await onSend(text);
      drafts.delete(draftKey);
      setText("");
      const active = document.activeElement;
      if (active === document.body || formRef.current?.contains(active)) inputRef.current?.focus();
    } catch (failure) {
      setError(t("sendFailed", { reason: failure instanceof Error ? failure.message : String(failure) }));
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== "Enter" || event.shiftKey) return;
    if (imeGuard.isImeKey(event.nativeEvent)) return;
    event.preventDefault();
    void send();
  };

  return (
    <form
      ref={formRef}
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <textarea
        ref={inputRef}
        className="composer__input"
        aria-label={t("messageLabel")}
        placeholder={t("messagePlaceholder")}
        rows={2}
        value={text}
        onChange={(event) => update(event.target.value)}
        onKeyDown={onKeyDown}
        onCompositionStart={imeGuard.onCompositionStart}
        onCompositionEnd={imeGuard.onCompositionEnd}
        aria-describedby={reason ? reasonId : undefined}
      />
      <div className="composer__actions">
        {reason && (
          <p id={reasonId} className="composer__reason">
            {reason}
          </p>
        )}
        {error && (
          <p role="alert" className="composer__error">
            {error}
          </p>
        )}
        <Button type="submit" variant="primary" disabled={!canSend} aria-describedby={reason ? reasonId : undefined}>
          {t("send")}
        </Button>
      </div>
    </form>
  );
}
