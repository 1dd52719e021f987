import { createContext } from "react";

/**
 * Whether the message box shows its chat's draft beside a takeover, as the composer slot decided it in the render that
 * mounts the takeover; null outside a slot. A takeover reads it as it first renders, when the page still shows what the
 * last render left (after a chat switch, the other chat's box).
 */
export const DraftInView = createContext<boolean | null>(null);
