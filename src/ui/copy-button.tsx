import { useEffect, useState } from "react";
import { useCopy } from "../i18n/i18n";
import { Button } from "./button";
import { markdownCopy } from "./markdown-copy";

/** How long `Copied` shows before the button reads `Copy` again, in milliseconds. */
const COPIED_SHOWN_MS = 2000;

type CopyState = "idle" | "copied" | "failed";

/** A button that puts `text` on the clipboard and says whether that worked. */
export function CopyButton({ text, label, className }: { text: string; /** The accessible name while idle; defaults to `Copy`. */ label?: string; className?: string }) {
  const t = useCopy(markdownCopy);
  const [state, setState] = useState<CopyState>("idle");

  useEffect(() => {
    if (state !== "copied") return;
    const timer = setTimeout(() => setState("idle"), COPIED_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch (error) {
      console.warn("could not copy to the clipboard", error);
      setState("failed");
    }
  };

  return (
    <>
      <Button variant="ghost" className={className ? `ui-copy ${className}` : "ui-copy"} data-state={state} onClick={() => void copy()}>
        {state === "copied" ? t("copied") : (label ?? t("copy"))}
      </Button>
      {state === "failed" && (
        <span role="alert" className="ui-copy__failed">
          {t("copyFailed")}
        </span>
      )}
    </>
  );
}
