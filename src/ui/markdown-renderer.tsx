import { useEffect, useState, type ComponentProps, type ElementType, type ReactNode } from "react";
import ReactMarkdown from "react-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { useCopy } from "../i18n/i18n";
import { CopyButton } from "./copy-button";
import type { HighlightNode } from "./highlight";
import { textOf } from "./hast-text";
import { isSafeLinkUrl } from "./safe-link";
import { markdownCopy } from "./markdown-copy";

function SafeLink({ href, children }: { href?: string; children?: ReactNode }) {
  if (!isSafeLinkUrl(href)) return <span className="markdown__unsafe-link">{children}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}

function ImageAsLink({ src, alt }: { src?: string | Blob; alt?: string }) {
  const url = typeof src === "string" ? src : "";
  const label = alt ? `${alt} ` : "";
  return (
    <span className="markdown__image">
      {label}
      {isSafeLinkUrl(url) ? (
        <a href={url} target="_blank" rel="noopener noreferrer nofollow">
          {url}
        </a>
      ) : (
        <span>{url}</span>
      )}
    </span>
  );
}

type IsolatedTag = "p" | "li" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "blockquote" | "td" | "th";

/** Each block of model text picks its own direction and is isolated from its neighbours. */
function isolated<Tag extends IsolatedTag>(Tag: Tag) {
  function Isolated({ node: _node, ...props }: ComponentProps<Tag> & { node?: unknown }) {
    const Element = Tag as ElementType;
    return <Element dir="auto" {...props} />;
  }
  return Isolated;
}

/** The parts of a hast node this module reads. */
interface HastLike {
  type: string;
  tagName?: string;
  value?: string;
  properties?: { className?: unknown };
  children?: HastLike[];
}

function languageOf(code: HastLike | undefined): string | null {
  const classes = code?.properties?.className;
  if (!Array.isArray(classes)) return null;
  for (const name of classes) if (typeof name === "string" && name.startsWith("language-")) return name.slice("language-".length);
  return null;
}

function Highlighted({ nodes }: { nodes: readonly HighlightNode[] }) {
  return nodes.map((node, index) =>
    node.type === "text" ? (
      node.value
    ) : (
      <span key={index} className={node.className}>
        <Highlighted nodes={node.children} />
      </span>
    ),
  );
}

/** A fenced code block: highlighted once the highlighter has loaded, with a Copy button. */
function CodeBlock({ node }: { node?: HastLike }) {
  const t = useCopy(markdownCopy);
  const code = node?.children?.find((child) => child.type === "element" && child.tagName === "code");
  const text = code ? textOf(code).replace(/\n$/, "") : node ? textOf(node) : "";
  const language = languageOf(code);
  const [highlighted, setHighlighted] = useState<{ text: string; nodes: HighlightNode[] } | null>(null);

  useEffect(() => {
    let live = true;
    import("./highlight").then(
      (module) => {
        if (live) setHighlighted({ text, nodes: module.highlight(text, language) });
      },
      (error: unknown) => console.warn("could not load the code highlighter; showing plain code", error),
    );
    return () => {
      live = false;
    };
  }, [text, language]);

  return (
    <div className="markdown__code">
      <div className="markdown__code-bar">
        <span className="markdown__code-language">{language ?? ""}</span>
        <CopyButton text={text} label={t("copyCode")} />
      </div>
      <pre dir="ltr">
        <code className={language ? `hljs language-${language}` : "hljs"}>{highlighted && highlighted.text === text ? <Highlighted nodes={highlighted.nodes} /> : text}</code>
      </pre>
    </div>
  );
}

function TaskCheckbox({ node: _node, checked, ...props }: ComponentProps<"input"> & { node?: unknown }) {
  const t = useCopy(markdownCopy);
  if (props.type !== "checkbox") return <input {...props} checked={checked} readOnly />;
  return <input {...props} checked={checked} readOnly disabled aria-label={checked ? t("taskDone") : t("taskOpen")} />;
}

function ScrollingTable({ node: _node, ...props }: ComponentProps<"table"> & { node?: unknown }) {
  return (
    <div className="markdown__table" tabIndex={0}>
      <table {...props} />
    </div>
  );
}

const keepUrl = (url: string) => url;
/** GitHub's extensions to the parser and to the syntax tree, made once: making them costs more than parsing a short reply. */
const GFM_SYNTAX = gfm();
const GFM_TREE = gfmFromMarkdown();

interface ParserData {
  micromarkExtensions?: unknown[];
  fromMarkdownExtensions?: unknown[];
}

/**
 * GitHub-flavoured markdown (tables, task lists, strikethrough, autolinks, footnotes) for the parser. `react-markdown`
 * builds its processor on every render, so a reply streaming at one render a frame would rebuild the extensions each
 * frame; this plugin hands the parser the ones made above.
 */
function githubMarkdown(this: unknown) {
  const data = (this as { data(): ParserData }).data();
  (data.micromarkExtensions ??= []).push(GFM_SYNTAX);
  (data.fromMarkdownExtensions ??= []).push(GFM_TREE);
}

const REMARK_PLUGINS = [githubMarkdown];

const COMPONENTS = {
  p: isolated("p"),
  li: isolated("li"),
  h1: isolated("h1"),
  h2: isolated("h2"),
  h3: isolated("h3"),
  h4: isolated("h4"),
  h5: isolated("h5"),
  h6: isolated("h6"),
  blockquote: isolated("blockquote"),
  td: isolated("td"),
  th: isolated("th"),
  a: SafeLink,
  img: ImageAsLink,
  pre: CodeBlock,
  input: TaskCheckbox,
  table: ScrollingTable,
};

/** GitHub-flavoured markdown with the safe components; the lazily loaded half of `Markdown`. */
export default function MarkdownRenderer({ text }: { text: string }) {
  return (
    <ReactMarkdown remarkPlugins={REMARK_PLUGINS} urlTransform={keepUrl} components={COMPONENTS}>
      {text}
    </ReactMarkdown>
  );
}
