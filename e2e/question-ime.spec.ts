import { expect, test, type Page } from "@playwright/test";
import { startHost, type TestHost } from "./host";

let host: TestHost;

test.beforeAll(async () => {
  host = await startHost();
});

test.afterAll(async () => {
  await host.dispose();
});

const batch = {
  questions: [
    { id: "city", question: "Which city?", options: [{ label: "Tokyo" }, { label: "Osaka" }] },
    { id: "note", question: "Any note for the driver?" },
  ],
};

async function ask(page: Page) {
  await page.goto(host.url);
  await page.getByRole("textbox", { name: "Message" }).fill(`/ask ${JSON.stringify(batch)}`);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("region", { name: "Which city?" })).toBeVisible();
}

const ENTER = { key: "Enter", code: "Enter", windowsVirtualKeyCode: 13, nativeVirtualKeyCode: 13 };

/** Types a reading with the IME, presses Enter to pick the candidate (the IME eats the key's text), and commits it. */
async function composeAndConfirmWithEnter(page: Page, reading: string, candidate: string) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Input.imeSetComposition", { text: reading, selectionStart: reading.length, selectionEnd: reading.length });
  await cdp.send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...ENTER });
  await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", ...ENTER });
  await cdp.send("Input.insertText", { text: candidate });
  await cdp.detach();
}

test("Enter during a real IME composition only confirms the candidate", async ({ page }) => {
  await ask(page);
  const input = page.getByRole("textbox", { name: "Type your answer" });
  await input.click();
  await composeAndConfirmWithEnter(page, "きょうと", "京都");
  await expect(input).toHaveValue("京都");
  await expect(page.getByRole("heading", { name: "Which city?", exact: true })).toBeVisible();
  await expect(page.getByText("1 / 2")).toBeVisible();

  await input.press("Enter");
  const textarea = page.getByRole("textbox", { name: "Type your answer" });
  await expect(page.getByRole("heading", { name: "Any note for the driver?", exact: true })).toBeVisible();
  await expect(textarea).toBeFocused();

  await composeAndConfirmWithEnter(page, "はやく", "早く");
  await expect(textarea).toHaveValue("早く");
  await expect(page.getByRole("region", { name: "Any note for the driver?" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Submit" })).toBeEnabled();

  await textarea.press("Enter");
  await expect(page.getByText('Answers: {"answers":[{"id":"city","selected":[],"custom":"京都"},{"id":"note","selected":[],"custom":"早く"}]}')).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
});
