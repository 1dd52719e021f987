import { useContext, useEffect, useRef, useState } from "react";
import { DraftInView } from "../../ui/draft-in-view";
import { afterPress } from "../../ui/press-activity";
import { useAnswerShortcut } from "./step-keys";
import { canTakeFocus, isTypingElsewhere, userIsHere, whenFreeToTakeOver } from "../../ui/typing-activity";

/**
 * Whether the user has turned to the panel. A panel that arrives while the user types elsewhere, or while the tab is
 * hidden or its window has not the focus, starts `passive`: it takes no focus and announces itself, until a click, Tab or
 * Alt+Q, or until the user is back and not typing (the composer is emptied by sending, or 1.5 s pass with no keystroke).
 */
export type Attention = "engaged" | "passive";



interface PanelAttentionOptions {
  /** Take focus when shown, if the tab is visible and focused and the user is not typing elsewhere. */
  autoFocus: boolean;
  collapsed: boolean;
  /** Opens a collapsed panel. */
  onExpand: () => void;
  /** Puts focus in the open panel. */
  focusPanel: () => void;
}

/**
 * The panel's attention, and the ways the user turns to it: Alt+Q, expanding it, a click or Tab
 * into it, or stopping typing elsewhere. `takeFocus` says whether the panel's content focuses its
 * first control when it mounts.
 */
export function usePanelAttention({ autoFocus, collapsed, onExpand, focusPanel }: PanelAttentionOptions) {
  // A panel that arrives while the user is away waits for them: on their return it takes over as it would have at once.
  const draftInView = useContext(DraftInView);
  const [arrival] = useState(() => ({ typing: isTypingElsewhere(draftInView), away: autoFocus && !userIsHere() }));
  const [attention, setAttention] = useState<Attention>(arrival.typing || arrival.away ? "passive" : "engaged");
  const [takeFocus, setTakeFocus] = useState(() => autoFocus && canTakeFocus() && !arrival.typing);

  const expand = () => {
    setTakeFocus(true);
    setAttention("engaged");
    onExpand();
  };
  const engage = () => {
    setAttention("engaged");
    if (collapsed) {
      expand();
      return;
    }
    focusPanel();
  };
  useAnswerShortcut(engage);
  const engageLatest = useRef(engage);
  useEffect(() => {
    engageLatest.current = engage;
  });
  // Set at the press that turns to the panel, before its render: a takeover waiting for that press to end then has nothing to do.
  const turnedRef = useRef(false);
  // A panel that waited for the user to stop typing takes over by itself once they have (the composer was sent or left idle).
  // Its place changes as it does, so not mid-press: the tap would land elsewhere.
  const waitsForTyping = autoFocus && attention === "passive" && !collapsed;
  useEffect(() => {
    if (!waitsForTyping) return;
    return whenFreeToTakeOver(() => {
      if (!turnedRef.current) engageLatest.current();
    });
  }, [waitsForTyping]);
  // The panel's place and the arrival notice change when it is engaged; not mid-press, or the click would miss.
  const turnToPanel = () => {
    if (attention !== "passive") return;
    turnedRef.current = true;
    afterPress(() => setAttention("engaged"));
  };

  return { attention, takeFocus, expand, turnToPanel };
}
