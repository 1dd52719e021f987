import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { focusMessageBox } from "./message-box";

function Footer({ panel, composerHidden, agentNotice = false }: { panel: "question" | "notice" | "approval" | null; composerHidden: boolean; agentNotice?: boolean }) {
  return (
    <div data-testid="footer" tabIndex={-1}>
      <div className="turn-bar">
        <button type="button">Stop</button>
      </div>
      <div className="composer-slot">
        {panel === "question" && (
          <section data-question-panel="">
            <button type="button">Fold</button>
            <textarea aria-label="Type your answer" />
          </section>
        )}
        {panel === "notice" && (
          <section data-question-panel="">
            <h2 tabIndex={-1}>Answered in another tab</h2>
            <button type="button">Dismiss</button>
          </section>
        )}
        {panel === "approval" && (
          <section data-approval-card="">
            <h2 tabIndex={-1}>Allow notes to run write_note?</h2>
          </section>
        )}
        {agentNotice ? (
          <p className="agent-notice" role="note" tabIndex={-1}>
            Claude Code asks here
          </p>
        ) : (
          <div className="composer-slot__composer" hidden={composerHidden}>
            <textarea aria-label="Message" />
          </div>
        )}
      </div>
    </div>
  );
}

const focused = () => {
  const active = document.activeElement as HTMLElement | null;
  return active?.getAttribute("aria-label") ?? active?.textContent ?? null;
};

describe("focusMessageBox", () => {
  it("focuses the message box first, else what holds its place; the skip link's order puts the takeover first", () => {
    const cases = [
      { panel: null, composerHidden: false, takeoverFirst: false, expected: "Message" },
      { panel: null, composerHidden: false, takeoverFirst: true, expected: "Message" },
      { panel: "question", composerHidden: true, takeoverFirst: false, expected: "Fold" },
      { panel: "question", composerHidden: false, takeoverFirst: false, expected: "Message" },
      { panel: "question", composerHidden: false, takeoverFirst: true, expected: "Fold" },
      { panel: "notice", composerHidden: true, takeoverFirst: false, expected: "Answered in another tab" },
      { panel: "approval", composerHidden: true, takeoverFirst: true, expected: "Allow notes to run write_note?" },
    ] as const;
    for (const { panel, composerHidden, takeoverFirst, expected } of cases) {
      const view = render(<Footer panel={panel} composerHidden={composerHidden} />);
      (document.activeElement as HTMLElement | null)?.blur();
      expect(focusMessageBox(view.getByTestId("footer"), takeoverFirst), `${panel} ${composerHidden} ${takeoverFirst}`).toBe(true);
      expect(focused(), `${panel} ${composerHidden} ${takeoverFirst}`).toBe(expected);
      view.unmount();
    }
  });

  it("focuses an outside agent's notice, which holds the place of a box its chat has not, unless a takeover shows", () => {
    for (const [panel, takeoverFirst, expected] of [
      [null, true, "Claude Code asks here"],
      [null, false, "Claude Code asks here"],
      ["approval", true, "Allow notes to run write_note?"],
    ] as const) {
      const view = render(<Footer panel={panel} composerHidden={false} agentNotice />);
      (document.activeElement as HTMLElement | null)?.blur();
      expect([focusMessageBox(view.getByTestId("footer"), takeoverFirst), focused()]).toEqual([true, expected]);
      view.unmount();
    }
  });

  it("focuses nothing and says so when neither the box nor a takeover shows", () => {
    const view = render(<Footer panel={null} composerHidden />);
    (document.activeElement as HTMLElement | null)?.blur();
    expect(focusMessageBox(view.getByTestId("footer"), false)).toBe(false);
    expect(document.activeElement).toBe(document.body);
    expect(focusMessageBox(null, true)).toBe(false);
  });
});
