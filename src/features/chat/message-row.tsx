import { memo, Suspense } from "react";
import type { Message } from "../../protocol/schemas";
import { useCopy } from "../../i18n/i18n";
import { CopyButton } from "../../ui/copy-button";
import { Markdown } from "../../ui/markdown";
import { RelativeTime } from "../../ui/relative-time";
import { VisuallyHidden } from "../../ui/visually-hidden";
import { chatCopy } from "./copy";
import { ToolRow } from "./tool-row";
import { lazyModule } from "../../ui/lazy-module";

/** A coding agent's rows (diffs, terminal output, plans) load with the first one shown, not with the app. */
const AcpRow = lazyModule(() => import("./acp-rows")).component((module) => module.AcpRow);

/** One transcript row; re-renders only when its message object changes. */
export const MessageRow = memo(function MessageRow({ message }: { message: Message }) {
  const t = useCopy(chatCopy);
  switch (message.role) {
    case "user":
      return (
        <div className="message message--user" data-message-id={message.id}>
          <VisuallyHidden>{t("you")}: </VisuallyHidden>
          <p className="message__text" dir="auto">
            {message.text ?? ""}
          </p>
          <RelativeTime iso={message.createdAt} className="message__time" />
        </div>
      );
    case "assistant":
      return (
        <div className="message message--assistant" data-message-id={message.id}>
          <VisuallyHidden>{t("assistant")}: </VisuallyHidden>
          {message.text ? (
            <>
              <Markdown text={message.text} />
              <div className="message__actions">
                <CopyButton text={message.text} label={t("copyMessage")} />
                <RelativeTime iso={message.createdAt} className="message__time" />
              </div>
            </>
          ) : (
            // A reply cut off before its first word (its host died mid-turn) says so, not "Thinking…" for good.
            <p className="message__thinking">{t(message.interrupted ? "turnInterrupted" : "thinking")}</p>
          )}
        </div>
      );
    case "tool":
      return (
        <div className="message message--tool" data-message-id={message.id}>
          {message.tool?.acp ? (
            <Suspense fallback={null}>
              <AcpRow message={message} data={message.tool.acp} />
            </Suspense>
          ) : message.tool ? <ToolRow tool={message.tool} interrupted={message.interrupted === true} /> : null}
        </div>
      );
    default:
      message.role satisfies never;
      return null;
  }
});
