import { useEffect, useState } from "react";
import { useCopy } from "../../i18n/i18n";
import { questionCopy } from "./copy";
import { useAskerSentence } from "./asker";

function isApple(): boolean {
  const platform = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ?? navigator.platform;
  return /mac|iphone|ipad/i.test(platform);
}

/**
 * The polite line, naming who asks, a panel shows when it arrived while the user was typing elsewhere. The text is
 * filled in a frame after the live region mounts, so screen readers announce it.
 */
export function ArrivalNotice({ count }: { count: number }) {
  const t = useCopy(questionCopy);
  const say = useAskerSentence();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setShown(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  const shortcut = isApple() ? t("shortcutMac") : t("shortcutOther");
  return (
    <p className="question-panel__arrival" role="status">
      {shown && (count === 1 ? say("arrivedOne", { shortcut }) : say("arrivedMany", { count, shortcut }))}
    </p>
  );
}
