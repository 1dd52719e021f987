import type { ReactNode } from "react";
import "./ui.css";

/** A short-lived notice at the foot of the page; a polite live region, so screen readers hear it without losing their place. */
export function Toast({ children }: { children: ReactNode }) {
  return (
    <div role="status" className="ui-toast">
      {children}
    </div>
  );
}
