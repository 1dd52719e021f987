import { lazy, Suspense, type ComponentType, type ReactNode } from "react";

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

const PLAIN_TEXT_STYLE = { whiteSpace: "pre-wrap" } as const;

const Rendered = lazy(async (): Promise<{ default: ComponentType<{ text: string }> }> => {
  const { default: ReactMarkdown } = await import("react-markdown");
  function RenderedMarkdown({ text }: { text: string }) {
    return (
      <ReactMarkdown urlTransform={keepUrl} components={{ a: SafeLink, img: ImageAsLink }}>
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
    <div className={classes}>
      <Suspense fallback={<div className="markdown__plain" style={PLAIN_TEXT_STYLE}>{text}</div>}>
        <Rendered text={text} />
      </Suspense>
    </div>
  );
}
