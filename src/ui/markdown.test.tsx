import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { Markdown } from "./markdown";
import { isSafeLinkUrl } from "./safe-link";

describe("Markdown", () => {
  it("shows the plain text while the renderer loads (hidden characters as markers), then the formatted markdown", async () => {
    const { container } = render(<Markdown text={"# Title\n\nSome **bold** text, report\u202Etxt.exe"} />);
    expect(container.querySelector(".markdown__plain")?.textContent).toBe("# Title\n\nSome **bold** text, report⟨U+202E⟩txt.exe");
    expect(await screen.findByRole("heading", { name: "Title" })).toBeInTheDocument();
    expect(screen.getByText("bold").tagName).toBe("STRONG");
  });

  it("opens http, https and mailto links in a new tab without referrer or opener", async () => {
    render(<Markdown text={"[site](https://example.com/a) [plain](http://example.org) [mail](mailto:a@example.com)"} />);
    const site = await screen.findByRole("link", { name: "site" });
    expect(site).toHaveAttribute("href", "https://example.com/a");
    expect(site).toHaveAttribute("target", "_blank");
    expect(site).toHaveAttribute("rel", "noopener noreferrer nofollow");
    expect(screen.getByRole("link", { name: "plain" })).toHaveAttribute("href", "http://example.org");
    expect(screen.getByRole("link", { name: "mail" })).toHaveAttribute("href", "mailto:a@example.com");
  });

  it("renders javascript:, data: and relative links as plain text", async () => {
    render(<Markdown text={"[one](javascript:alert(1)) [two](data:text/html,hi) [three](/local) end"} />);
    expect(await screen.findByText("one")).toBeInTheDocument();
    expect(screen.queryAllByRole("link")).toEqual([]);
    expect(screen.getByText("two").tagName).toBe("SPAN");
    expect(screen.getByText("three").tagName).toBe("SPAN");
  });

  it("never loads an image, showing its alt text and URL instead", async () => {
    const { container } = render(<Markdown text={"![a cat](https://example.com/cat.png)"} />);
    const link = await screen.findByRole("link", { name: "https://example.com/cat.png" });
    expect(link).toHaveAttribute("rel", "noopener noreferrer nofollow");
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector(".markdown__image")?.textContent).toBe("a cat https://example.com/cat.png");
  });

  it("shows raw HTML as text instead of elements", async () => {
    const { container } = render(<Markdown text={'Hello <img src="x" onerror="alert(1)"> and <script>alert(2)</script>\n\n<div>block</div>'} />);
    await screen.findByText(/Hello/);
    expect(container.querySelector("img, script, .markdown div")).toBeNull();
    expect(container.textContent).toContain('<img src="x" onerror="alert(1)">');
    expect(container.textContent).toContain("<div>block</div>");
  });
});

describe("Markdown: GitHub-flavoured", () => {
  it("renders tables, task lists, strikethrough and autolinked URLs", async () => {
    const text = "| Tool | Use |\n| --- | --- |\n| pnpm | fast |\n\n- [x] written\n- [ ] shipped\n\n~~old~~ see https://example.com/docs and www.example.org";
    render(<Markdown text={text} />);
    const table = await screen.findByRole("table");
    expect(within(table).getAllByRole("row").map((row) => row.textContent)).toEqual(["ToolUse", "pnpmfast"]);
    expect(screen.getByRole("checkbox", { name: "Done" })).toBeChecked();
    expect(screen.getByRole("checkbox", { name: "Not done" })).not.toBeChecked();
    expect(screen.getByText("old").tagName).toBe("DEL");
    expect(screen.getByRole("link", { name: "https://example.com/docs" })).toHaveAttribute("href", "https://example.com/docs");
    expect(screen.getByRole("link", { name: "www.example.org" })).toHaveAttribute("href", "http://www.example.org");
    expect(screen.getByRole("link", { name: "www.example.org" })).toHaveAttribute("rel", "noopener noreferrer nofollow");
  });

  it("keeps GitHub's markdown across re-renders of a growing reply, footnotes included", async () => {
    const { rerender } = render(<Markdown text={"| A |\n| --- |\n| 1 |"} />);
    expect(within(await screen.findByRole("table")).getAllByRole("row").map((row) => row.textContent)).toEqual(["A", "1"]);
    rerender(<Markdown text={"| A |\n| --- |\n| 1 |\n| 2 |\n\n~~gone~~ and a note[^1].\n\n[^1]: The note."} />);
    expect(within(screen.getByRole("table")).getAllByRole("row").map((row) => row.textContent)).toEqual(["A", "1", "2"]);
    expect(screen.getByText("gone").tagName).toBe("DEL");
    expect(document.querySelector(".markdown sup")?.textContent).toBe("1");
    const notes = screen.getByRole("heading", { name: "Footnotes" }).closest("section");
    expect(notes).toHaveAttribute("data-footnotes", "true");
    expect(within(notes!).getByText(/^The note\./)).toBeInTheDocument();
  });

  it("highlights a fenced code block without raw HTML and copies its exact text", async () => {
    const user = userEvent.setup();
    const code = 'const answer = "<b>42</b>"; // not markup';
    const { container } = render(<Markdown text={"```ts\n" + code + "\n```"} />);
    await screen.findByRole("button", { name: "Copy code" });
    await vi.waitFor(() => expect(container.querySelector("code .hljs-keyword")?.textContent).toBe("const"));
    expect(container.querySelector("code")?.textContent).toBe(code);
    expect(container.querySelector("code b")).toBeNull();
    expect(container.querySelector(".markdown__code-language")?.textContent).toBe("ts");
    await user.click(screen.getByRole("button", { name: "Copy code" }));
    expect(await navigator.clipboard.readText()).toBe(code);
    expect(screen.getByRole("button", { name: "Copied" })).toBeInTheDocument();
  });

  it("shows a hidden character of model text as a marker, in prose and in code, and keeps an emoji's joiner", async () => {
    const text = "open report\u202Etxt.exe\u202C now, `co\u202Ede` and **b\u2066x\u2069** \u{1F469}\u200D\u{1F4BB}\n\n```\nif (a\u202E) {}\n```";
    const { container } = render(<Markdown text={text} />);
    await screen.findByRole("button", { name: "Copy code" });
    expect([...container.querySelectorAll("p, pre code")].map((node) => node.textContent)).toEqual([
      "open report⟨U+202E⟩txt.exe⟨U+202C⟩ now, co⟨U+202E⟩de and b⟨U+2066⟩x⟨U+2069⟩ \u{1F469}\u200D\u{1F4BB}",
      "if (a⟨U+202E⟩) {}",
    ]);
  });

  it("keeps the text of a code block whose language the highlighter does not recognise", async () => {
    const plain = ["hello world", "x".repeat(300), "  indented\n\ttabbed ✓ שלום"];
    const { container } = render(<Markdown text={["```ts\nconst a = 1;\n```", ...plain.map((code) => "```\n" + code + "\n```")].join("\n\n")} />);
    // The highlighter module is loaded once for every block; the ts block's keyword shows it has run.
    await vi.waitFor(() => expect(container.querySelector("code .hljs-keyword")?.textContent).toBe("const"));
    expect([...container.querySelectorAll("code")].map((code) => code.textContent)).toEqual(["const a = 1;", ...plain]);
  });
});

describe("isSafeLinkUrl", () => {
  it("allows only absolute http, https and mailto URLs", () => {
    expect(["https://a.b", "http://a.b/c?d", "mailto:x@y.z"].map(isSafeLinkUrl)).toEqual([true, true, true]);
    const unsafe = ["javascript:alert(1)", "JAVASCRIPT:alert(1)", "vbscript:x", "data:text/html,x", "/rel", "#top", "", undefined];
    expect(unsafe.map(isSafeLinkUrl)).toEqual(unsafe.map(() => false));
  });
});
