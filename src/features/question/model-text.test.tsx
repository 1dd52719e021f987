import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ModelText, showBidiControls } from "./model-text";

describe("model-written text", () => {
  it("shows every embedding, override, isolate and mark as a visible marker", () => {
    expect(showBidiControls("a\u202Ab\u202Bc\u202Cd\u202De\u202Ef")).toBe("a⟨U+202A⟩b⟨U+202B⟩c⟨U+202C⟩d⟨U+202D⟩e⟨U+202E⟩f");
    expect(showBidiControls("\u2066x\u2067y\u2068z\u2069")).toBe("⟨U+2066⟩x⟨U+2067⟩y⟨U+2068⟩z⟨U+2069⟩");
    expect(showBidiControls("\u200E\u200F\u061C")).toBe("⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩");
  });

  it("leaves other text, right-to-left letters and lone surrogates alone", () => {
    expect(showBidiControls("Approve שלום \uD800 (Recommended)")).toBe("Approve שלום \uD800 (Recommended)");
  });

  it("shows zero-width and other invisible format characters as markers too", () => {
    expect(showBidiControls("Allow\u200B once\u2060")).toBe("Allow⟨U+200B⟩ once⟨U+2060⟩");
    const { container } = render(<ModelText text={"de\u200Blete\uFEFF"} />);
    expect(container.textContent).toBe("de⟨U+200B⟩lete⟨U+FEFF⟩");
  });

  it("renders the text isolated in a bdi element that picks its own direction", () => {
    const { container } = render(<ModelText text={"\u202EevorppA"} />);
    expect(container.innerHTML).toBe('<bdi dir="auto">⟨U+202E⟩evorppA</bdi>');
  });
});
