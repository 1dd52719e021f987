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
  // The composer keeps focus after sending, so the panel waits passively until the user turns to it.
  await page.keyboard.press("Alt+KeyQ");
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
  await expect(page.getByRole("heading", { level: 2, name: "Which city?", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Question 1 of 2, answered" })).toHaveAttribute("aria-current", "step");

  await input.press("Enter");
  const textarea = page.getByRole("textbox", { name: "Type your answer" });
  await expect(page.getByRole("heading", { level: 2, name: "Any note for the driver?", exact: true })).toBeVisible();
  await expect(textarea).toBeFocused();

  await composeAndConfirmWithEnter(page, "はやく", "早く");
  await expect(textarea).toHaveValue("早く");
  await expect(page.getByRole("region", { name: "Any note for the driver?" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Submit" })).toBeEnabled();

  await textarea.press("Enter");
  await expect(page.getByText('Answers: {"answers":[{"id":"city","selected":[],"custom":"京都"},{"id":"note","selected":[],"custom":"早く"}]}')).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
});

/** Gboard outside any composition: keydown carries keyCode 229 and key "Unidentified"; the text arrives as input. */
async function gboardType(page: Page, text: string) {
  const cdp = await page.context().newCDPSession(page);
  for (const char of text) {
    await cdp.send("Input.dispatchKeyEvent", { type: "rawKeyDown", key: "Unidentified", windowsVirtualKeyCode: 229, nativeVirtualKeyCode: 229 });
    await cdp.send("Input.insertText", { text: char });
    await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", key: "Unidentified", windowsVirtualKeyCode: 229, nativeVirtualKeyCode: 229 });
  }
  await cdp.detach();
}

test("Gboard's keyCode 229 Enter, and an Enter that arrives only as a line break, act as Enter outside composition", async ({ page }) => {
  await ask(page);
  const input = page.getByRole("textbox", { name: "Type your answer" });
  await input.click();
  await gboardType(page, "Kyoto");
  await expect(input).toHaveValue("Kyoto");
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Input.dispatchKeyEvent", { type: "rawKeyDown", key: "Enter", code: "Enter", windowsVirtualKeyCode: 229, nativeVirtualKeyCode: 229 });
  await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", key: "Enter", code: "Enter", windowsVirtualKeyCode: 229, nativeVirtualKeyCode: 229 });
  await expect(page.getByRole("heading", { level: 2, name: "Any note for the driver?", exact: true })).toBeVisible();

  const textarea = page.getByRole("textbox", { name: "Type your answer" });
  await expect(textarea).toBeFocused();
  await gboardType(page, "Soon");
  await cdp.send("Input.dispatchKeyEvent", { type: "rawKeyDown", key: "Unidentified", windowsVirtualKeyCode: 229, nativeVirtualKeyCode: 229 });
  await cdp.send("Input.dispatchKeyEvent", { type: "char", text: "\r", unmodifiedText: "\r", windowsVirtualKeyCode: 13, nativeVirtualKeyCode: 13 });
  await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", key: "Unidentified", windowsVirtualKeyCode: 229, nativeVirtualKeyCode: 229 });
  await cdp.detach();
  await expect(page.getByText('Answers: {"answers":[{"id":"city","selected":[],"custom":"Kyoto"},{"id":"note","selected":[],"custom":"Soon"}]}')).toBeVisible();
});

test("a Japanese IME's full-width digit chooses by its physical key, and never while composing", async ({ page }) => {
  await ask(page);
  const tokyo = page.getByRole("radio", { name: "Tokyo" });
  await expect(tokyo).toBeFocused();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Input.dispatchKeyEvent", { type: "rawKeyDown", key: "２", code: "Digit2", windowsVirtualKeyCode: 50, nativeVirtualKeyCode: 50 });
  await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", key: "２", code: "Digit2", windowsVirtualKeyCode: 50, nativeVirtualKeyCode: 50 });
  await expect(page.getByRole("heading", { level: 2, name: "Any note for the driver?", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Previous question" }).click();
  await expect(page.getByRole("radio", { name: "Osaka" })).toBeChecked();

  const input = page.getByRole("textbox", { name: "Type your answer" });
  await input.click();
  await cdp.send("Input.imeSetComposition", { text: "１", selectionStart: 1, selectionEnd: 1 });
  await cdp.send("Input.dispatchKeyEvent", { type: "rawKeyDown", key: "Process", code: "Digit1", windowsVirtualKeyCode: 229, nativeVirtualKeyCode: 229 });
  await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", key: "１", code: "Digit1", windowsVirtualKeyCode: 49, nativeVirtualKeyCode: 49 });
  await cdp.send("Input.insertText", { text: "１" });
  await cdp.detach();
  await expect(input).toHaveValue("１");
  await expect(page.getByRole("radio", { name: "Tokyo" })).not.toBeChecked();
  await expect(page.getByRole("heading", { level: 2, name: "Which city?", exact: true })).toBeVisible();
});
