import { lazy, Suspense, type ComponentProps, type ComponentType, type ElementType, type ReactNode } from "react";

const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** Whether a model-written URL may become a live link: absolute http(s) or mailto only. */
export function isSafeLinkUrl(url: string | undefined): url is string {
  if (!url) return false;
  try {
    return SAFE_PROTOCOLS.has(new URL(url).protocol);
  } catch {
    return false;
  }
}

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

const keepUrl = (url: string) => url;

type BlockProps<Tag extends "p" | "li" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "blockquote" | "td" | "th"> = ComponentProps<Tag> & { node?: unknown };

/** Each block of model text picks its own direction and is isolated from its neighbours. */
function isolated<Tag extends "p" | "li" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "blockquote" | "td" | "th">(Tag: Tag) {
  function Isolated({ node: _node, ...props }: BlockProps<Tag>) {
    const Element = Tag as ElementType;
    return <Element dir="auto" {...props} />;
  }
  return Isolated;
}

const ISOLATED_BLOCKS = {
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
};

const PLAIN_TEXT_STYLE = { whiteSpace: "pre-wrap" } as const;

const Rendered = lazy(async (): Promise<{ default: ComponentType<{ text: string }> }> => {
  const { default: ReactMarkdown } = await import("react-markdown");
  function RenderedMarkdown({ text }: { text: string }) {
    return (
      <ReactMarkdown urlTransform={keepUrl} components={{ ...ISOLATED_BLOCKS, a: SafeLink, img: ImageAsLink }}>
        {text}
      </ReactMarkdown>
    );
  }
  return { default: RenderedMarkdown };
});

/**
 * Model-written markdown, sanitised: raw HTML shows as text, only http(s)/mailto links
 * (opened in a new tab), images shown as their alt text and URL, never fetched.
 */
export function Markdown({ text, className }: { text: string; className?: string }) {
  const classes = className ? `markdown ${className}` : "markdown";
  return (
    <div className={classes} dir="auto">
      <Suspense fallback={<div className="markdown__plain" dir="auto" style={PLAIN_TEXT_STYLE}>{text}</div>}>
        <Rendered text={text} />
      </Suspense>
    </div>
  );
}
