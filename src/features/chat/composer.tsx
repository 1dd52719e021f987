import { useId, useRef, useState, type KeyboardEvent, type RefObject } from "react";
import { LIMITS } from "../../protocol/limits";
import { useCopy } from "../../i18n/i18n";
import { Button } from "../../ui/button";
import { createImeGuard } from "../../ui/ime";
import { TOUCH_QUERY, useMediaQuery } from "../../ui/use-media-query";
import { chatCopy } from "./copy";
import { LazyCommandMenu as CommandMenu } from "./lazy-command-menu";
import type { ComposerCommand } from "./commands";
import { useCommandMenu } from "./use-command-menu";
import { keepDraft, useDraftText } from "./use-draft-text";
import { useSendMessage } from "./use-send-message";

export { NEW_CHAT_DRAFT, restoreSent } from "./use-send-message";

export interface ComposerProps {
  /** Which draft the text belongs to (the session id); the text is kept per key in `drafts`. */
  draftKey: string;
  drafts: Map<string, string>;
  /** Why sending is not possible now (a turn is running), or null. */
  blockedReason: string | null;
  /** Sends the text; a rejection puts the text back and says what happened. */
  onSend: (text: string) => Promise<void>;
  /** Lets the caller focus the text box (on load, New chat, switching chats). */
  inputRef?: RefObject<HTMLTextAreaElement | null>;
  /** Text handed to this composer from elsewhere; it is added after what the box holds, once per object. */
  prefill?: { text: string } | null;
  onPrefillTaken?: () => void;
  /** What the `/` menu offers: the scripted model's commands, and an agent's own; none shows no menu. */
  commands?: readonly ComposerCommand[];
  /** Who reads what is sent: a coding agent's title, else Parley (the box's placeholder names it). */
  recipient?: string;
}

/**
 * The normal composer. On desktop Enter sends and Shift+Enter is a newline; on touch devices
 * (no Shift on most keyboards) Enter is a newline and the Send button sends. IME-safe. The box
 * is cleared the moment a message is sent, so text typed while the request is in flight stays;
 * an Enter on that text sends it as soon as the request is through, unless the text changes first.
 */
export function Composer({ draftKey, drafts, blockedReason, onSend, inputRef: givenInputRef, prefill = null, onPrefillTaken, commands = [], recipient = "Parley" }: ComposerProps) {
  const t = useCopy(chatCopy);
  const touch = useMediaQuery(TOUCH_QUERY);
  const { text, setText } = useDraftText(draftKey, drafts, prefill, onPrefillTaken);
  const [imeGuard] = useState(createImeGuard);
  const formRef = useRef<HTMLFormElement>(null);
  const ownInputRef = useRef<HTMLTextAreaElement>(null);
  const inputRef = givenInputRef ?? ownInputRef;
  const reasonId = useId();
  const errorId = useId();

  const tooLong = text.length > LIMITS.messageChars;
  const reason = blockedReason ?? (tooLong ? t("messageTooLong", { count: text.length, max: LIMITS.messageChars }) : null);
  const ready = reason === null && text.trim() !== "";
  const { canSend, error, send, dropQueued } = useSendMessage({ draftKey, drafts, text, setText, ready, onSend, formRef, inputRef });

  const update = (next: string) => {
    setText(next);
    dropQueued();
    keepDraft(drafts, draftKey, next);
  };

  const { menuId, offered, active, optionId, choose, onMenuKey, onMenuBlur, onMenuFocus } = useCommandMenu({ text, commands, imeGuard, update, inputRef });

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (onMenuKey(event)) return;
    if (event.key !== "Enter" || event.shiftKey || touch) return;
    if (imeGuard.isImeKey(event.nativeEvent)) return;
    event.preventDefault();
    void send();
  };

  const described = [reason ? reasonId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;

  return (
    <form
      ref={formRef}
      className="composer"
      data-command-menu={offered.length > 0 ? "open" : "closed"}
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      {offered.length > 0 && <CommandMenu id={menuId} commands={offered} active={active} optionId={optionId} onChoose={choose} />}
      <textarea
        ref={inputRef}
        className="composer__input"
        // Its unsent text keeps an arriving question passive while the box is in view (ui/typing-activity).
        data-draft={text === "" ? undefined : ""}
        aria-label={t("messageLabel")}
        placeholder={t(touch ? "messagePlaceholderTouch" : "messagePlaceholder", { name: recipient })}
        enterKeyHint={touch ? "enter" : "send"}
        rows={2}
        value={text}
        onChange={(event) => update(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={onMenuBlur}
        onFocus={onMenuFocus}
        onCompositionStart={imeGuard.onCompositionStart}
        onCompositionEnd={imeGuard.onCompositionEnd}
        aria-describedby={described}
        aria-controls={offered.length > 0 ? menuId : undefined}
        aria-activedescendant={offered.length > 0 ? optionId(active) : undefined}
      />
      <div className="composer__actions">
        {reason && (
          <p id={reasonId} className="composer__reason">
            {reason}
          </p>
        )}
        {error && (
          <div role="alert" id={errorId} className="composer__error">
            <p>{error}</p>
            <Button onClick={() => void send()} disabled={!canSend}>
              {t("retrySend")}
            </Button>
          </div>
        )}
        <Button type="submit" variant="primary" disabled={!ready} aria-describedby={reason ? reasonId : undefined}>
          {t("send")}
        </Button>
      </div>
    </form>
  );
}
