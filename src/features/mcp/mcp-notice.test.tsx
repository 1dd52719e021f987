import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { LocaleProvider } from "../../i18n/i18n";
import { itKeepsCatalogParity } from "../../i18n/catalog-testing";
import type { McpServerHealth } from "../../protocol/schemas";
import { mcpCopy } from "./copy";
import { McpNotice } from "./mcp-notice";

afterEach(cleanup);

const servers: McpServerHealth[] = [
  { name: "notes", state: "ready", tools: 3 },
  { name: "web", state: "failed", tools: 0, error: "fetch failed" },
  { name: "<b>x</b>", state: "failed", tools: 0, error: "<img src=x onerror=alert(1)>" },
];

describe("McpNotice", () => {
  it("names each failed server and its error as text", async () => {
    render(
      <LocaleProvider initial="en" setsDocumentLanguage={false}>
        <McpNotice health={() => Promise.resolve({ mcp: servers })} />
      </LocaleProvider>,
    );
    const items = await screen.findAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual([
      "The MCP server “web” is not available, so its tools are not offered: fetch failed",
      "The MCP server “<b>x</b>” is not available, so its tools are not offered: <img src=x onerror=alert(1)>",
    ]);
    expect(screen.getByRole("status")).toContainElement(items[0]!);
    expect(document.querySelector("img")).toBe(null);
  });

  it("says so in Chinese", async () => {
    render(
      <LocaleProvider initial="zh-CN" setsDocumentLanguage={false}>
        <McpNotice health={() => Promise.resolve({ mcp: servers.slice(0, 2) })} />
      </LocaleProvider>,
    );
    expect((await screen.findByRole("listitem")).textContent).toBe("MCP 服务器“web”不可用，其工具暂不提供：fetch failed");
  });

  it("is an empty live region when every server works", async () => {
    let answered = () => undefined as void;
    const asked = new Promise<void>((resolve) => (answered = resolve));
    render(
      <LocaleProvider initial="en" setsDocumentLanguage={false}>
        <McpNotice
          health={() => {
            answered();
            return Promise.resolve({ mcp: servers.slice(0, 1) });
          }}
        />
      </LocaleProvider>,
    );
    await asked;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.getByRole("status")).toBeEmptyDOMElement();
  });
});

describe("mcp copy", () => {
  itKeepsCatalogParity(mcpCopy);
});
