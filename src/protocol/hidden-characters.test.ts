import { describe, expect, it } from "vitest";
import { showHiddenCharacters } from "./hidden-characters";

describe("showHiddenCharacters", () => {
  it("marks every bidi embedding, override, isolate and mark", () => {
    expect(showHiddenCharacters("a\u202Ab\u202Bc\u202Cd\u202De\u202Ef")).toBe("a⟨U+202A⟩b⟨U+202B⟩c⟨U+202C⟩d⟨U+202D⟩e⟨U+202E⟩f");
    expect(showHiddenCharacters("\u2066x\u2067y\u2068z\u2069")).toBe("⟨U+2066⟩x⟨U+2067⟩y⟨U+2068⟩z⟨U+2069⟩");
    expect(showHiddenCharacters("\u200E\u200F\u061C")).toBe("⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩");
  });

  it("shows report\\u202Etxt.exe\\u202C as what it is, not as reportexe.txt", () => {
    expect(showHiddenCharacters("report\u202Etxt.exe\u202C")).toBe("report⟨U+202E⟩txt.exe⟨U+202C⟩");
  });

  it("marks zero-width spaces, joiners and non-joiners between Latin letters, word joiners, soft hyphens, the BOM and invisible operators", () => {
    expect(showHiddenCharacters("de\u200Blete")).toBe("de⟨U+200B⟩lete");
    expect(showHiddenCharacters("r\u200Cm r\u200Dm")).toBe("r⟨U+200C⟩m r⟨U+200D⟩m");
    expect(showHiddenCharacters("a\u2060b\u00ADc\uFEFFd\u2062e\u180Ef")).toBe("a⟨U+2060⟩b⟨U+00AD⟩c⟨U+FEFF⟩d⟨U+2062⟩e⟨U+180E⟩f");
  });

  it("marks tag characters that spell hidden ASCII, and Hangul fillers", () => {
    expect(showHiddenCharacters("ok\u{E0072}\u{E006D}")).toBe("ok⟨U+E0072⟩⟨U+E006D⟩");
    expect(showHiddenCharacters("a\u3164b\u115Fc")).toBe("a⟨U+3164⟩b⟨U+115F⟩c");
  });

  it("keeps one variation selector after a visible character, and marks a run of them or one with nothing to select", () => {
    expect(showHiddenCharacters("❤\uFE0F 1\uFE0F\u20E3 葛\u{E0100}")).toBe("❤\uFE0F 1\uFE0F\u20E3 葛\u{E0100}");
    expect(showHiddenCharacters("😀\u{E0101}\u{E0102}")).toBe("😀\u{E0101}⟨U+E0102⟩");
    expect(showHiddenCharacters("\uFE0Fa \uFE0E")).toBe("⟨U+FE0F⟩a ⟨U+FE0E⟩");
  });

  it("keeps emoji sequences and subdivision flags whole", () => {
    const family = "👨\u200D👩\u200D👧";
    const coder = "👩🏽\u200D💻";
    const rainbow = "🏳\uFE0F\u200D🌈";
    const scotland = "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}";
    expect(showHiddenCharacters(`${family} ${coder} ${rainbow} ${scotland}`)).toBe(`${family} ${coder} ${rainbow} ${scotland}`);
    expect(showHiddenCharacters("a\u200D👍")).toBe("a⟨U+200D⟩👍");
  });

  it("marks tags after a black flag unless they spell a subdivision flag: text hidden in tags behind a flag shows", () => {
    const tags = (text: string) => Array.from(text, (char) => String.fromCodePoint(0xe0000 + char.codePointAt(0)!)).join("");
    const marks = (text: string) => Array.from(text, (char) => `⟨U+${(0xe0000 + char.codePointAt(0)!).toString(16).toUpperCase()}⟩`).join("");
    expect(showHiddenCharacters(`🏴${tags("rm -rf ~")}`)).toBe(`🏴${marks("rm -rf ~")}`);
    // Too long, not ended by the cancel tag, or with a tag no subdivision code has: all of the run shows.
    expect(showHiddenCharacters(`🏴${tags("gbengland")}\u{E007F}`)).toBe(`🏴${marks("gbengland")}⟨U+E007F⟩`);
    expect(showHiddenCharacters(`🏴${tags("gbsct")}`)).toBe(`🏴${marks("gbsct")}`);
    expect(showHiddenCharacters(`🏴${tags("GBSCT")}\u{E007F}`)).toBe(`🏴${marks("GBSCT")}⟨U+E007F⟩`);
    // A flag, then tags of their own after it: the flag is kept, the other tags show.
    const wales = `🏴${tags("gbwls")}\u{E007F}`;
    expect(showHiddenCharacters(`${wales}${tags("hi")} ${wales}`)).toBe(`${wales}${marks("hi")} ${wales}`);
  });

  it("keeps the joiners that Persian and Indic spelling need", () => {
    expect(showHiddenCharacters("می\u200Cخواهم")).toBe("می\u200Cخواهم");
    expect(showHiddenCharacters("क्\u200Dष")).toBe("क्\u200Dष");
  });

  it("leaves other text, right-to-left letters, visible format signs and lone surrogates alone", () => {
    expect(showHiddenCharacters("Approve שלום \uD800 (Recommended)")).toBe("Approve שלום \uD800 (Recommended)");
    expect(showHiddenCharacters("\u0600١٢ done\n\ttab")).toBe("\u0600١٢ done\n\ttab");
  });
});
