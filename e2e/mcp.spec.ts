import AxeBuilder from "@axe-core/playwright";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test, type Page } from "@playwright/test";
import { startHost, type TestHost } from "./host";

let host: TestHost;

test.beforeAll(async () => {
  host = await startHost();
});

test.afterAll(async () => {
  await host.dispose();
});

async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((violation) => ({ id: violation.id, impact: violation.impact, targets: violation.nodes.map((node) => node.target.join(" ")) }));
}

async function agent(name: string) {
  const client = new Client({ name: name.toLowerCase().replaceAll(" ", "-"), title: name, version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", host.url)));
  return client;
}

async function agentSessionId(page: Page, title: RegExp): Promise<string> {
  const response = await page.request.get(`${host.url}/api/sessions`);
  const { sessions } = (await response.json()) as { sessions: { id: string; title: string }[] };
  const found = sessions.find((session) => title.test(session.title));
  if (!found) throw new Error(`no session titled ${title}`);
  return found.id;
}

test("an MCP client's question is answered in the panel and the agent receives exactly the answer JSON", async ({ page }) => {
  const client = await agent("Claude Code");
  try {
    const call = client.callTool({
      name: "ask_user_question",
      arguments: {
        questions: [
          { id: "db", question: "Which database?", options: [{ label: "SQLite (Recommended)" }, { label: "Postgres" }] },
          { id: "name", question: "What should the service be called?" },
        ],
      },
    });
    await expect.poll(() => agentSessionId(page, /^Claude Code · \d\d:\d\d$/).catch(() => null)).not.toBeNull();
    const sessionId = await agentSessionId(page, /^Claude Code · \d\d:\d\d$/);
    await page.goto(`${host.url}/#session=${sessionId}`);

    const sidebar = page.getByRole("navigation", { name: "Chats" });
    await expect(sidebar.getByRole("link", { name: /^Claude Code · \d\d:\d\d MCP agent Waiting for answer$/ })).toBeVisible();
    const first = page.getByRole("region", { name: "Which database?" });
    await expect(first).toBeVisible();
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      expect(await violations(page)).toEqual([]);
    }
    await first.getByRole("radio", { name: "SQLite" }).click();
    const second = page.getByRole("region", { name: "What should the service be called?" });
    await second.getByRole("textbox", { name: "Type your answer" }).fill("ledger");
    await second.getByRole("button", { name: "Submit" }).click();

    expect(await call).toEqual({
      content: [{ type: "text", text: '{"answers":[{"id":"db","selected":["SQLite (Recommended)"]},{"id":"name","selected":[],"custom":"ledger"}]}' }],
    });
    await expect(page.getByRole("button", { name: /Ask question\s*2\/2 answered/ })).toBeVisible();
    await expect(page.getByRole("note")).toHaveText(
      "Claude Code, an outside agent, asks its questions in this chat: answer them in the panel when they appear. Stop cancels what Claude Code is waiting for.",
    );
    await expect(page.getByRole("textbox", { name: "Message" })).toHaveCount(0);
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      expect(await violations(page)).toEqual([]);
    }
  } finally {
    await client.close();
  }
});

test("an outside agent's waiting chat keeps its whole title on one line and both badges on the next, within 44 px, on a desktop and in the phone drawer", async ({ page }) => {
  const client = await agent("Gemini CLI");
  try {
    const call = client.callTool({ name: "ask_user_question", arguments: { questions: [{ id: "go", question: "Go on?", options: [{ label: "Yes" }, { label: "No" }] }] } });
    await expect.poll(() => agentSessionId(page, /^Gemini CLI · /).catch(() => null)).not.toBeNull();
    const sessionId = await agentSessionId(page, /^Gemini CLI · /);
    // A right-to-left title keeps its place at the row's start when its badges go under it.
    const renamed = await page.request.patch(`${host.url}/api/sessions/${sessionId}`, { data: { title: "שלום" } });
    expect(renamed.ok()).toBe(true);
    const measure = async () => {
      const row = page.getByRole("navigation", { name: "Chats" }).getByRole("link", { name: "שלום MCP agent Waiting for answer" });
      await expect(row).toBeVisible();
      await page.evaluate(() => document.fonts.ready);
      return row.evaluate((link) => {
        const box = (selector: string) => link.querySelector(selector)!.getBoundingClientRect();
        const [title, agentBadge, waiting, whole] = [box(".session-item__title"), box(".session-item__agent"), box(".session-item__badge"), link.getBoundingClientRect()];
        const titleSpan = link.querySelector(".session-item__title")!;
        return {
          titleCut: titleSpan.scrollWidth > titleSpan.clientWidth,
          titleAtStart: Math.abs(title.left - agentBadge.left) < 1,
          badgesOnOneLine: Math.abs(agentBadge.top - waiting.top) < 1,
          badgesUnderTitle: agentBadge.top >= title.bottom - 1,
          rowWithin36To44: whole.height >= 36 && link.closest("li")!.getBoundingClientRect().height <= 44,
        };
      });
    };
    const expected = { titleCut: false, titleAtStart: true, badgesOnOneLine: true, badgesUnderTitle: true, rowWithin36To44: true };
    await page.goto(`${host.url}/#session=${sessionId}`);
    expect(await measure()).toEqual(expected);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.getByRole("button", { name: "Sessions" }).click();
    expect(await measure()).toEqual(expected);
    await page.getByRole("button", { name: "Close the chat list" }).click();
    await page.getByRole("region", { name: "Go on?" }).getByRole("radio", { name: "Yes" }).click();
    expect(await call).toEqual({ content: [{ type: "text", text: '{"answers":[{"id":"go","selected":["Yes"]}]}' }] });
  } finally {
    await client.close();
  }
});

test("Stop in the agent's chat aborts its pending call: the panel goes and the row reads interrupted", async ({ page }) => {
  const client = await agent("Codex CLI");
  try {
    const call = client.callTool({ name: "present_plan", arguments: { plan: "1. Drop the old table" } });
    await expect.poll(() => agentSessionId(page, /^Codex CLI · /).catch(() => null)).not.toBeNull();
    await page.goto(`${host.url}/#session=${await agentSessionId(page, /^Codex CLI · /)}`);
    await expect(page.getByRole("button", { name: "Approve" })).toBeVisible();
    await page.getByRole("button", { name: "Stop" }).click();
    expect(await call).toEqual({
      content: [{ type: "text", text: 'Error: ask_user_question was aborted before the user answered\n{"name":"UserInteractionError","code":"ASK_ABORTED"}' }],
      isError: true,
    });
    await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /interrupted/ })).toBeVisible();
  } finally {
    await client.close();
  }
});
