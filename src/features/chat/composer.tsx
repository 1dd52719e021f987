import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from "react";
import { LIMITS } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { Button } from "../../ui/button";
import { createImeGuard } from "../../ui/ime";
import { TOUCH_QUERY, useMediaQuery } from "../../ui/use-media-query";
import { describeFailure } from "./failure";
import { chatCopy } from "./copy";
import { CommandMenu } from "./command-menu";
import { completeCommand, matchCommands, type ComposerCommand } from "./commands";

/** The key of the draft a new chat types into; the session it creates takes the draft over. */
export const NEW_CHAT_DRAFT = "";

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
}

/** The sent text put back in front of whatever was typed while it was in flight. */
export function restoreSent(sent: string, typedSince: string): string {
  return typedSince === "" ? sent : `${sent}\n${typedSince}`;
}

/**
 * The normal composer. On desktop Enter sends and Shift+Enter is a newline; on touch devices
 * (no Shift on most keyboards) Enter is a newline and the Send button sends. IME-safe. The box
 * is cleared the moment a message is sent, so text typed while the request is in flight stays;
 * an Enter on that text sends it as soon as the request is through, unless the text changes first.
 */
export function Composer({ draftKey, drafts, blockedReason, onSend, inputRef: givenInputRef, prefill = null, onPrefillTaken, commands = [] }: ComposerProps) {
  const t = useCopy(chatCopy);
  const touch = useMediaQuery(TOUCH_QUERY);
  const [text, setText] = useState(() => drafts.get(draftKey) ?? "");
  const [shownKey, setShownKey] = useState(draftKey);
  const [sending, setSending] = useState(false);
  // An Enter while the previous message is still in flight: it sends once that one is through.
  const [queued, setQueued] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [imeGuard] = useState(createImeGuard);
  const formRef = useRef<HTMLFormElement>(null);
  const ownInputRef = useRef<HTMLTextAreaElement>(null);
  const inputRef = givenInputRef ?? ownInputRef;
  const keyRef = useRef(draftKey);
  useLayoutEffect(() => {
    keyRef.current = draftKey;
  }, [draftKey]);
  const reasonId = useId();
  const errorId = useId();
  const menuId = useId();
  const [menuClosedAt, setMenuClosedAt] = useState<string | null>(null);
  const [activeCommand, setActiveCommand] = useState(0);

  if (shownKey !== draftKey) {
    // A new chat's first send moves its text to the session it created; leaving any other chat drops a waiting Enter.
    if (shownKey !== NEW_CHAT_DRAFT) setQueued(false);
    setShownKey(draftKey);
    setText(drafts.get(draftKey) ?? "");
    setError(null);
  }

  const [takenPrefill, setTakenPrefill] = useState<{ text: string } | null>(null);
  if (prefill !== null && prefill !== takenPrefill) {
    setTakenPrefill(prefill);
    const held = shownKey === draftKey ? text : (drafts.get(draftKey) ?? "");
    const next = held === "" ? prefill.text : `${held}\n${prefill.text}`;
    setText(next);
    if (next === "") drafts.delete(draftKey);
    else drafts.set(draftKey, next);
  }
  useEffect(() => {
    if (takenPrefill !== null) onPrefillTaken?.();
  }, [takenPrefill, onPrefillTaken]);

  const tooLong = text.length > LIMITS.messageChars;
  const reason = blockedReason ?? (tooLong ? t("messageTooLong", { count: text.length, max: LIMITS.messageChars }) : null);
  const ready = reason === null && text.trim() !== "";
  const canSend = !sending && ready;

  const store = (key: string, next: string) => {
    if (next === "") drafts.delete(key);
    else drafts.set(key, next);
  };

  const update = (next: string) => {
    setText(next);
    setQueued(false);
    store(draftKey, next);
  };

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
    store(sentKey, "");
    try {
      await onSend(sent);
      const active = document.activeElement;
      if (active === document.body || formRef.current?.contains(active)) inputRef.current?.focus();
    } catch (failure) {
      setQueued(false);
      // A new chat's draft moved to the session it created; anywhere else the text goes back where it was typed.
      const targetKey = sentKey === NEW_CHAT_DRAFT ? keyRef.current : sentKey;
      const restored = restoreSent(sent, drafts.get(targetKey) ?? "");
      store(targetKey, restored);
      if (targetKey === keyRef.current) {
        setText(restored);
        setError(t("sendFailed", { reason: describeFailure(failure, t) }));
      }
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

  const offered = menuClosedAt === text ? [] : matchCommands(text, commands);
  const active = Math.min(activeCommand, Math.max(offered.length - 1, 0));
  const optionId = (index: number) => `${menuId}-${index}`;
  const choose = (command: ComposerCommand) => {
    update(completeCommand(command));
    setActiveCommand(0);
    inputRef.current?.focus();
  };

  /** The `/` menu's keys: arrows move, Enter or Tab completes, Escape closes it for what is typed. */
  const onMenuKey = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (offered.length === 0 || imeGuard.isImeKey(event.nativeEvent)) return false;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActiveCommand((active + step + offered.length) % offered.length);
    } else if ((event.key === "Enter" && !event.shiftKey) || (event.key === "Tab" && !event.shiftKey)) {
      choose(offered[active]!);
    } else if (event.key === "Escape") {
      setMenuClosedAt(text);
    } else return false;
    event.preventDefault();
    event.stopPropagation();
    return true;
  };

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
        aria-label={t("messageLabel")}
        placeholder={touch ? t("messagePlaceholderTouch") : t("messagePlaceholder")}
        enterKeyHint={touch ? "enter" : "send"}
        rows={2}
        value={text}
        onChange={(event) => update(event.target.value)}
        onKeyDown={onKeyDown}
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
