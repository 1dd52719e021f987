import { useEffect, useState } from "react";
import { useCopy } from "../../i18n/i18n";
import { questionCopy } from "./copy";
import { useAskerSentence } from "./asker";
import { TOUCH_QUERY, useMediaQuery } from "../../ui/use-media-query";

function isApple(): boolean {
  const platform = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ?? navigator.platform;
  return /mac|iphone|ipad/i.test(platform);
}

/**
 * The polite line, naming who asks, a panel shows when it arrived while the user was typing elsewhere: Alt+Q (Option+Q)
 * to answer, or on a touch device a tap on the panel. The text is
 * filled in a frame after the live region mounts, so screen readers announce it.
 */
export function ArrivalNotice({ count, plan = false }: { count: number; plan?: boolean }) {
  const t = useCopy(questionCopy);
  const say = useAskerSentence();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setShown(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  // A phone or tablet has no Alt+Q to press (its keyboard is on the screen): a tap on the panel turns to it.
  const touch = useMediaQuery(TOUCH_QUERY);
  const shortcut = isApple() ? t("shortcutMac") : t("shortcutOther");
  const sentence = () => {
    // A plan review is one decision (its note is part of it), whatever the questions it is carried in.
    if (touch) return plan ? say("arrivedPlanTouch") : count === 1 ? say("arrivedOneTouch") : say("arrivedManyTouch", { count });
    return plan ? say("arrivedPlan", { shortcut }) : count === 1 ? say("arrivedOne", { shortcut }) : say("arrivedMany", { count, shortcut });
  };
  return (
    <p className="question-panel__arrival" role="status">
      {shown && sentence()}
    </p>
  );
}
