import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { startHostWithTestMcp, type TestHost } from "./host";

// The real host with the test MCP server over stdio as "files": `/tool mcp__files__ask_<form> {}`
// makes the server send one of its form elicitations, which the host maps to questions
// (docs/protocol.md, elicitation-mapping); the scripted model replies with the tool's result, which
// is the ElicitResult the server received.

let host: TestHost;

test.beforeAll(async () => {
  host = await startHostWithTestMcp("files");
});

test.afterAll(async () => {
  await host.dispose();
});

async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((violation) => ({ id: violation.id, targets: violation.nodes.map((node) => node.target.join(" ")) }));
}

async function expectAxeClean(page: Page) {
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    expect(await violations(page)).toEqual([]);
  }
}

async function askForm(page: Page, form: string) {
  await page.goto(host.url);
  await page.getByRole("textbox", { name: "Message" }).fill(`/tool mcp__files__ask_${form} {}`);
  await page.getByRole("button", { name: "Send" }).click();
}

/** The scripted model's reply, which streams in: the ElicitResult the server received, as JSON. */
async function expectServerReceived(page: Page, expected: unknown) {
  const reply = page.getByText(/^Tool result: /);
  await expect
    .poll(async () => {
      const text = (await reply.textContent())?.replace(/^Tool result: /, "") ?? "";
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        if (error instanceof SyntaxError) return `not yet JSON: ${text}`;
        throw error;
      }
    })
    .toEqual(expected);
}

test("typed text fields: the server is named, a wrong email is refused in the panel, the default is shown, and the server gets the content typed", async ({ page }) => {
  await askForm(page, "string");
  const panel = page.getByRole("region", { name: "Email" });
  await expect(panel).toBeVisible();
  await expect(panel.getByText("Asked by the files server")).toBeVisible();
  await expect(panel.getByText("Tell me about you")).toBeVisible();
  await expect(panel.getByText("An answer is required: this question cannot be skipped.")).toBeVisible();
  await expect(panel.getByRole("button", { name: "Skip this question" })).toBeDisabled();
  const email = panel.getByRole("textbox", { name: "Type your answer" });
  await expect(email).toHaveAttribute("type", "email");
  await email.fill("ada@example");
  await expect(email).toHaveAccessibleDescription("Enter an email address, such as name@example.com.");
  await expect(panel.getByRole("button", { name: "Next", exact: true })).toBeDisabled();
  await expectAxeClean(page);
  await email.press("Enter");
  await expect(page.getByRole("heading", { name: "Email" })).toBeVisible();
  await email.fill("ada@example.org");
  await email.press("Enter");

  const site = page.getByRole("region", { name: "site" }).getByRole("textbox", { name: "Type your answer" });
  await expect(site).toHaveAttribute("type", "url");
  await site.fill("https://example.org/ada");
  await site.press("Enter");
  const born = page.getByRole("region", { name: "born" }).locator("input[type=date]");
  await born.fill("1815-12-10");
  await born.press("Enter");
  const meet = page.getByRole("region", { name: "meet" }).getByRole("textbox", { name: "Type your answer" });
  await meet.fill("2026-12-24T18:30+01:00");
  await meet.press("Enter");

  const nick = page.getByRole("region", { name: "nick" });
  await expect(nick.getByRole("textbox", { name: "Type your answer" })).toHaveValue("ada");
  await expect(nick.getByText("Pre-filled with the default answer. Change it if you like.")).toBeVisible();
  await expectAxeClean(page);
  await nick.getByRole("button", { name: "Submit" }).click();

  await expectServerReceived(page, {
    action: "accept",
    content: { email: "ada@example.org", site: "https://example.org/ada", born: "1815-12-10", meet: "2026-12-24T18:30:00+01:00", nick: "ada" },
  });
});

test("numbers: an out-of-range count is refused, the default is pre-filled, and the server gets numbers", async ({ page }) => {
  await askForm(page, "number");
  const count = page.getByRole("region", { name: "Count" });
  const field = count.getByRole("textbox", { name: "Type your answer" });
  await expect(field).toHaveValue("3");
  await expect(field).toHaveAttribute("inputmode", "numeric");
  // The default is selected as the step takes the focus, so a number typed replaces it rather than adding to it.
  await expect(field).toBeFocused();
  await page.keyboard.type("5");
  await expect(field).toHaveValue("5");
  await field.fill("11");
  await expect(field).toHaveAccessibleDescription("Enter 10 or less.");
  await field.fill("4.5");
  await expect(field).toHaveAccessibleDescription("Enter a whole number.");
  await field.fill("7");
  await field.press("Enter");
  const ratio = page.getByRole("region", { name: "ratio" }).getByRole("textbox", { name: "Type your answer" });
  await expect(ratio).toHaveAttribute("inputmode", "decimal");
  await ratio.fill("0.25");
  await ratio.press("Enter");
  await expectServerReceived(page, { action: "accept", content: { count: 7, ratio: 0.25 } });
});

test("a boolean: Yes and No with no text field, the default marked, and the server gets a boolean", async ({ page }) => {
  await askForm(page, "boolean");
  const panel = page.getByRole("region", { name: "Deploy now?" });
  await expect(panel.getByRole("radio", { name: "Yes" })).toBeChecked();
  await expect(panel.getByRole("radio", { name: "Yes" })).toHaveAccessibleDescription("Default");
  await expect(panel.getByRole("textbox")).toHaveCount(0);
  await expectAxeClean(page);
  await panel.getByRole("radio", { name: "No" }).click();
  await expectServerReceived(page, { action: "accept", content: { confirm: false } });
});

test("a multi-select with bounds: too many is refused, an optional one is skipped, and the server gets the values", async ({ page }) => {
  await askForm(page, "multi");
  const panel = page.getByRole("region", { name: "Toppings" });
  await expect(panel.getByText("Choose 1 to 2.")).toBeVisible();
  for (const name of ["Ham", "Egg", "Kale"]) await panel.getByRole("checkbox", { name }).click();
  await expect(panel.getByText("Choose at most 2 options.")).toBeVisible();
  await expect(panel.getByRole("button", { name: "Next", exact: true })).toBeDisabled();
  await expectAxeClean(page);
  await panel.getByRole("checkbox", { name: "Egg" }).click();
  await panel.getByRole("button", { name: "Next", exact: true }).click();
  await page.getByRole("region", { name: "extras" }).getByRole("button", { name: "Skip this question" }).click();
  await page.getByRole("button", { name: "Submit" }).click();
  await expectServerReceived(page, { action: "accept", content: { toppings: ["ham", "kale"] } });
});

test("Dismiss all questions declines the form", async ({ page }) => {
  await askForm(page, "enum");
  const panel = page.getByRole("region", { name: "colour" });
  await expect(panel.getByRole("radio", { name: "red" })).toBeVisible();
  await panel.getByRole("button", { name: "Dismiss all questions" }).click();
  await expectServerReceived(page, { action: "decline" });
});
