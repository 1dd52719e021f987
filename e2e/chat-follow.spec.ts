import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { startHost, type TestHost } from "./host";

let host: TestHost;

test.beforeAll(async () => {
  host = await startHost();
});

test.afterAll(async () => {
  await host.dispose();
});

/** Whether the element's bottom edge is inside the transcript's visible area (and not behind the footer). */
async function expectNewestVisible(page: Page, row: Locator) {
  await expect(row).toBeVisible();
  await expect
    .poll(async () => {
      const transcript = await page.getByRole("region", { name: "Messages" }).boundingBox();
      const box = await row.boundingBox();
      if (!transcript || !box) return "no box";
      return box.y + box.height <= transcript.y + transcript.height + 1 && box.y >= transcript.y - 1 ? "visible" : `row ${box.y}+${box.height} outside ${transcript.y}+${transcript.height}`;
    })
    .toBe("visible");
}

async function expectNoAxeViolations(page: Page) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((violation) => `${scheme} ${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

const lastRow = (page: Page) => page.getByRole("region", { name: "Messages" }).getByRole("listitem").last();
/** The text a row shows for its message, without the speaker prefix, the Copy button and the time. */
const lastText = (page: Page) => lastRow(page).locator(".message__text, .markdown");

test("the transcript follows 30 sends, a long streamed reply and a question panel, stays put when scrolled up, and Jump to latest brings it back", async ({ page }) => {
  await page.goto(host.url);
  const composer = page.getByRole("textbox", { name: "Message" });
  for (let index = 0; index < 30; index++) {
    await composer.fill(`/echo line ${index}`);
    await composer.press("Enter");
    await expect(lastText(page)).toHaveText(`line ${index}`);
    await expect(page.getByRole("button", { name: "Stop" })).toBeHidden();
    await expectNewestVisible(page, lastRow(page));
  }

  const long = Array.from({ length: 80 }, (_, index) => `Paragraph ${index} of a long streamed reply.`).join("\n\n");
  await composer.fill(`/echo ${long}`);
  await composer.press("Enter");
  await expect(lastRow(page)).toContainText("Paragraph 79 of a long streamed reply.");
  await expectNewestVisible(page, page.getByText("Paragraph 79 of a long streamed reply.", { exact: true }));
  // The last piece can show before the turn ends; a send before then is held back with its reason, as for any turn.
  await expect(page.getByRole("button", { name: "Stop" })).toBeHidden();

  await composer.fill(`/ask ${JSON.stringify({ questions: [{ id: "go", question: "Carry on?", options: [{ label: "Yes" }, { label: "No" }] }] })}`);
  await composer.press("Enter");
  const panel = page.getByRole("region", { name: "Carry on?" });
  await expect(panel).toBeVisible();
  await expectNewestVisible(page, page.getByRole("region", { name: "Messages" }).getByText("/ask", { exact: false }).last());
  await expectNewestVisible(page, lastRow(page));
  // The panel arrived while the composer had focus, so it is passive; Alt+Q turns to it, as a user would.
  await page.keyboard.press("Alt+KeyQ");
  await panel.getByRole("radio", { name: "Yes" }).click();
  await expect(panel).toBeHidden();
  await expect(lastRow(page)).toContainText("Answers:");
  await expectNewestVisible(page, lastRow(page));

  const transcript = page.getByRole("region", { name: "Messages" });
  await transcript.hover();
  await page.mouse.wheel(0, -1500);
  await expect(page.getByRole("button", { name: "Jump to latest" })).toBeVisible();
  const scrolledTo = await transcript.evaluate((element) => element.scrollTop);
  await composer.focus();
  await page.evaluate(async (base) => {
    const sessionId = decodeURIComponent(window.location.hash.slice("#session=".length));
    await fetch(`${base}/api/sessions/${encodeURIComponent(sessionId)}/messages`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text: "/echo from another tab" }) });
  }, host.url);
  await expect(page.getByRole("button", { name: /^Jump to latest \(\d+ new\)$/ })).toBeVisible();
  expect(await transcript.evaluate((element) => element.scrollTop)).toBe(scrolledTo);
  await expectNoAxeViolations(page);
  expect(await transcript.evaluate((element) => element.scrollTop)).toBe(scrolledTo);
  await page.getByRole("button", { name: /^Jump to latest/ }).click();
  await expect(lastText(page)).toHaveText("from another tab");
  await expectNewestVisible(page, lastRow(page));
  await expect(page.getByRole("button", { name: /^Jump to latest/ })).toBeHidden();
});
