import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { LocaleProvider } from "../i18n/i18n";
import { relativeParts, RelativeTime } from "./relative-time";

const MINUTE = 60_000;

describe("relativeParts", () => {
  it("picks the largest whole unit", () => {
    const now = Date.parse("2026-12-01T10:00:00.000Z");
    expect(relativeParts(now - 20_000, now)).toEqual({ value: 0, unit: "minute" });
    expect(relativeParts(now - 5 * MINUTE, now)).toEqual({ value: -5, unit: "minute" });
    expect(relativeParts(now - 3 * 60 * MINUTE, now)).toEqual({ value: -3, unit: "hour" });
    expect(relativeParts(now - 2 * 24 * 60 * MINUTE, now)).toEqual({ value: -2, unit: "day" });
    expect(relativeParts(now - 40 * 24 * 60 * MINUTE, now)).toEqual({ value: -1, unit: "month" });
  });
});

describe("RelativeTime", () => {
  it("says how long ago in the UI language, with the absolute time on hover", () => {
    const iso = new Date(Date.now() - 5 * MINUTE - 1000).toISOString();
    const { unmount } = render(<RelativeTime iso={iso} />);
    const time = screen.getByText("5 minutes ago");
    expect(time.tagName).toBe("TIME");
    expect(time).toHaveAttribute("datetime", iso);
    expect(time).toHaveAttribute("title", new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" }).format(Date.parse(iso)));
    unmount();
    render(
      <LocaleProvider initial="zh-CN">
        <RelativeTime iso={iso} />
      </LocaleProvider>,
    );
    expect(screen.getByText("5分钟前")).toBeInTheDocument();
  });

  it("shows the locale's short form when narrow (now, under a minute) and keeps the full one for screen readers, with the same absolute time on hover", () => {
    const iso = new Date(Date.now() - 3 * 60 * MINUTE - 1000).toISOString();
    const recent = new Date(Date.now() - 20_000).toISOString();
    render(
      <>
        <RelativeTime iso={iso} narrow />
        <RelativeTime iso={recent} narrow />
      </>,
    );
    const time = screen.getByText("3h ago").closest("time")!;
    expect(time).toHaveAttribute("title", new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" }).format(Date.parse(iso)));
    // Shown short, read in full.
    expect(screen.getByText("3h ago")).toHaveAttribute("aria-hidden", "true");
    expect(time).toHaveTextContent(/^3h ago3 hours ago$/);
    expect(screen.getByText("3 hours ago")).toHaveClass("ui-visually-hidden");
    expect(screen.getByText("now").closest("time")).toHaveAttribute("datetime", recent);
    expect(screen.getByText("now").closest("time")).toHaveTextContent(/^nowthis minute$/);
  });

  it("renders nothing for a missing or unreadable time", () => {
    const { container } = render(
      <>
        <RelativeTime iso="" />
        <RelativeTime iso="not a date" />
      </>,
    );
    expect(container).toBeEmptyDOMElement();
  });
});
