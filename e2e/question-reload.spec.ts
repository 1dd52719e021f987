import { expect, test } from "@playwright/test";
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
    { id: "pkg", question: "Which package manager?", options: [{ label: "pnpm (Recommended)" }, { label: "npm" }] },
    { id: "name", question: "What is the project called?" },
    { id: "extras", question: "Which extras?", multi_select: true, options: [{ label: "ESLint" }, { label: "Vitest" }] },
  ],
};

test("a reload mid-wizard shows the same question at the same step with every draft intact, and the answer still goes through", async ({ page }) => {
  await page.goto(host.url);
  await page.getByRole("textbox", { name: "Message" }).fill(`/ask ${JSON.stringify(batch)}`);
  await page.getByRole("button", { name: "Send" }).click();

  await page.getByRole("region", { name: "Which package manager?" }).getByRole("radio", { name: "npm", exact: true }).click();
  const second = page.getByRole("region", { name: "What is the project called?" });
  await second.getByRole("textbox", { name: "Type your answer" }).fill("half a name");
  await expect(second.getByRole("button", { name: "Question 2 of 3, answered" })).toHaveAttribute("aria-current", "step");
  await expect(page).toHaveURL(/#session=/);

  await page.reload();

  const restored = page.getByRole("region", { name: "What is the project called?" });
  await expect(restored).toBeVisible();
  await expect(restored.getByRole("button", { name: "Question 2 of 3, answered" })).toHaveAttribute("aria-current", "step");
  await expect(restored.getByRole("textbox", { name: "Type your answer" })).toHaveValue("half a name");
  await restored.getByRole("button", { name: "Previous question" }).click();
  const first = page.getByRole("region", { name: "Which package manager?" });
  await expect(first.getByRole("radio", { name: "npm", exact: true })).toBeChecked();
  await expect(first.getByRole("radio", { name: "pnpm", exact: true })).not.toBeChecked();

  await first.getByRole("button", { name: "Next question" }).click();
  await page.getByRole("region", { name: "What is the project called?" }).getByRole("textbox", { name: "Type your answer" }).fill("whole name");
  await page.getByRole("region", { name: "What is the project called?" }).getByRole("button", { name: "Next", exact: true }).click();
  const third = page.getByRole("region", { name: "Which extras?" });
  await third.getByRole("checkbox", { name: "Vitest" }).click();
  await third.getByRole("button", { name: "Submit" }).click();

  const expected = {
    answers: [
      { id: "pkg", selected: ["npm"] },
      { id: "name", selected: [], custom: "whole name" },
      { id: "extras", selected: ["Vitest"] },
    ],
  };
  await expect(page.getByText(`Answers: ${JSON.stringify(expected)}`, { exact: true })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  expect(await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith("parley.question-draft.")))).toEqual([]);
});
