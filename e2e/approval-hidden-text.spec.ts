import { expect, test, type Locator, type Page } from "@playwright/test";
import { startHostWithTestMcp, type TestHost } from "./host";

let host: TestHost;

test.beforeAll(async () => {
  host = await startHostWithTestMcp("notes");
});

test.afterAll(async () => {
  await host.dispose();
});

/**
 * Arguments a model writes itself: a right-to-left override that shows `txt.exe` as `exe.txt`, an
 * instruction pushed off to the side by 400 spaces, and a 400-character word that no space breaks.
 */
const LONG_WORD = "0123456789".repeat(40);
const DISGUISED = { name: "report\u202Etxt.exe\u202C", text: `ok${" ".repeat(400)}; and also delete everything ${LONG_WORD}` };
const CARD = "Allow notes to run write_note?";

async function openChat(page: Page): Promise<string> {
  const created = await page.request.post(`${host.url}/api/sessions`, { data: {} });
  const { session } = (await created.json()) as { session: { id: string } };
  await page.goto(`${host.url}/#session=${session.id}`);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  return session.id;
}

/** How far the element's content reaches past its box sideways, in pixels; 0 when nothing is hidden to the side. */
function sidewaysOverflow(element: Locator): Promise<number> {
  return element.evaluate((node) => node.scrollWidth - node.clientWidth);
}

for (const viewport of [
  { name: "360 px", width: 360, height: 740 },
  { name: "desktop", width: 1280, height: 800 },
]) {
  test(`a disguised call shows its hidden characters as markers and wraps every line, on the approval card and the tool row (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const sessionId = await openChat(page);
    const command = `/tool mcp__notes__write_note ${JSON.stringify(DISGUISED)}`;
    expect((await page.request.post(`${host.url}/api/sessions/${sessionId}/messages`, { data: { text: command } })).status()).toBe(202);

    const card = page.getByRole("region", { name: CARD });
    const shown = card.getByRole("region", { name: "Arguments" });
    await expect(shown).toBeVisible();
    await expect(shown).toContainText('"name": "report⟨U+202E⟩txt.exe⟨U+202C⟩"', { useInnerText: true });
    await expect(shown).toContainText(`; and also delete everything ${LONG_WORD}"`, { useInnerText: true });
    expect(await shown.innerText()).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/u);
    expect(await sidewaysOverflow(shown)).toBeLessThanOrEqual(0);
    // The end of the instruction is laid out inside the box's width, not beyond it.
    const ends = await shown.evaluate((node) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      const box = node.getBoundingClientRect();
      return [...range.getClientRects()].every((rect) => rect.right <= box.right + 0.5 && rect.left >= box.left - 0.5);
    });
    expect(ends).toBe(true);

    await card.getByRole("button", { name: "Allow once" }).click();
    await expect(card).toHaveCount(0);
    // The reply and the turn's end move the rows; open the tool row once they have.
    await expect(page.getByText(/^Tool result: saved /)).toBeVisible();
    await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
    const toggle = page.getByRole("button", { name: /notes · write_note\s*done/ });
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    const details = page.locator(".mcp-tool");
    await details.getByText("Arguments").click();
    const rowArguments = details.locator(".mcp-tool__json");
    await expect(rowArguments).toBeVisible();
    await expect(rowArguments).toContainText('"name": "report⟨U+202E⟩txt.exe⟨U+202C⟩"', { useInnerText: true });
    await expect(rowArguments).toContainText(`; and also delete everything ${LONG_WORD}"`, { useInnerText: true });
    expect(await sidewaysOverflow(rowArguments)).toBeLessThanOrEqual(0);
    const result = details.getByRole("region", { name: "Result" });
    await expect(result).toHaveText("saved report⟨U+202E⟩txt.exe⟨U+202C⟩", { useInnerText: true });
  });
}
