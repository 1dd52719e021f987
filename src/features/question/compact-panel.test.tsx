import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { LocaleProvider } from "../../i18n/i18n";
import type { PendingRequest, QuestionItem } from "../../protocol/schemas";
import { acceptingRespond, installTestClock } from "./panel-test-kit";
import { QuestionPanel } from "./question-panel";

installTestClock();

afterEach(() => {
  document.body.replaceChildren();
});

function request(questions: QuestionItem[], rpcId = "rpc-compact"): PendingRequest {
  return { rpcId, sessionId: "session-1", createdAt: "2026-11-30T10:00:00.000Z", questions };
}

function renderPanel(questions: QuestionItem[], locale?: "zh-CN") {
  const panel = <QuestionPanel request={request(questions)} position={{ index: 0, count: 1 }} respond={acceptingRespond()} autoFocus={false} />;
  render(locale ? <LocaleProvider initial={locale} setsDocumentLanguage={false}>{panel}</LocaleProvider> : panel);
  return userEvent.setup();
}

describe("the compact stepper", () => {
  it("marks an answered step with ✓ and a skipped one with the word, beside the step still to answer", async () => {
    const user = renderPanel([
      { id: "a", header: "Tooling", question: "Which one?", options: [{ label: "pnpm" }, { label: "npm" }] },
      { id: "b", header: "Name", question: "Name it?" },
      { id: "c", header: "Extras", question: "Extras?", options: [{ label: "ESLint" }], multiSelect: true },
    ]);
    await user.click(screen.getByRole("radio", { name: "npm" }));
    await user.click(screen.getByRole("button", { name: "Skip this question" }));
    const steps = screen.getAllByRole("button", { name: /^Question \d of 3/ });
    expect(steps.map((step) => [step.getAttribute("aria-label"), step.textContent])).toEqual([
      ["Question 1 of 3, answered", "✓Tooling"],
      ["Question 2 of 3, skipped", "2skippedName"],
      ["Question 3 of 3, not answered yet", "3Extras"],
    ]);
  });
});

describe("a typed answer's bounds", () => {
  it("says a form field's bounds before they are broken, under the property's title", () => {
    renderPanel([
      { id: "traveller", question: "Traveller", input: { kind: "text", minLength: 2, maxLength: 40 } },
      { id: "nights", question: "Nights", input: { kind: "integer", minimum: 1, maximum: 30 } },
    ]);
    expect(screen.getByRole("heading", { level: 2, name: "Traveller" })).toBeVisible();
    expect(screen.getByText("2 to 40 characters.")).toBeVisible();
  });

  it("says a number's range, a lone bound, and Chinese", async () => {
    const user = renderPanel(
      [
        { id: "nights", question: "Nights", input: { kind: "integer", minimum: 1, maximum: 30 } },
        { id: "note", question: "Note", input: { kind: "text", maxLength: 10 } },
      ],
      "zh-CN",
    );
    expect(screen.getByText("1 到 30 之间的整数。")).toBeVisible();
    await user.click(screen.getByRole("button", { name: "第 2 题，共 2 题，尚未回答" }));
    expect(screen.getByText("最多 10 个字符。")).toBeVisible();
  });

  it("says nothing for a field without bounds", () => {
    renderPanel([{ id: "free", question: "Anything else?" }]);
    expect(document.querySelector(".question-panel__hint--bounds")).toBeNull();
  });
});

describe("a long list of options", () => {
  const regions = (count: number): QuestionItem => ({ id: "region", question: "Which region?", options: Array.from({ length: count }, (_, index) => ({ label: `Region ${index + 1}` })) });

  it("says past nine options that the list scrolls and how the keyboard reaches the rest", () => {
    renderPanel([regions(30)]);
    expect(screen.getByText("30 options: the list scrolls. 1–9 choose the first nine; ↑ ↓ reach the rest, Home and End the ends.")).toBeVisible();
  });

  it("says nothing for nine options, which 1–9 all reach", () => {
    renderPanel([regions(9)]);
    expect(screen.queryByText(/the list scrolls/)).toBeNull();
  });
});
