import AxeBuilder from "@axe-core/playwright";
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
    {
      id: "pkg",
      header: "Tooling",
      question: "Which package manager?",
      options: [
        { label: "pnpm (Recommended)", description: "Fast and disk-efficient" },
        { label: "npm", description: "Ships with Node" },
        { label: "yarn" },
      ],
    },
    { id: "name", question: "What should the project be called?" },
    {
      id: "features",
      question: "Which features?",
      multi_select: true,
      options: [{ label: "Auth" }, { label: "Billing", description: "Stripe" }, { label: "Search" }],
    },
  ],
};

async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    targets: violation.nodes.map((node) => node.target.join(" ")),
  }));
}

for (const theme of ["light", "dark"] as const) {
  test(`the chat and every step of the panel have no axe violations (${theme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(host.url);
    await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
    expect(await violations(page)).toEqual([]);

    await page.getByRole("textbox", { name: "Message" }).fill(`/ask ${JSON.stringify(batch)}`);
    await page.getByRole("button", { name: "Send" }).click();
    const first = page.getByRole("region", { name: "Which package manager?" });
    await expect(first).toBeVisible();
    await expect(first.getByText("Recommended", { exact: true })).toBeVisible();
    expect(await violations(page)).toEqual([]);

    await first.getByRole("radio", { name: "pnpm" }).click();
    const second = page.getByRole("region", { name: "What should the project be called?" });
    await expect(second).toBeVisible();
    await second.getByRole("textbox", { name: "Type your answer" }).fill("parley");
    expect(await violations(page)).toEqual([]);

    await second.getByRole("button", { name: "Next", exact: true }).click();
    const third = page.getByRole("region", { name: "Which features?" });
    await expect(third.getByRole("group", { name: "Which features?" })).toBeVisible();
    await third.getByRole("checkbox", { name: "Billing" }).click();
    expect(await violations(page)).toEqual([]);

    await third.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText('Answers: {"answers":[{"id":"pkg","selected":["pnpm (Recommended)"]},{"id":"name","selected":[],"custom":"parley"},{"id":"features","selected":["Billing"]}]}')).toBeVisible();
  });
}

test("the collapsed bar and the discard confirmation have no axe violations", async ({ page }) => {
  await page.goto(host.url);
  await page.getByRole("textbox", { name: "Message" }).fill(`/ask ${JSON.stringify(batch)}`);
  await page.getByRole("button", { name: "Send" }).click();
  const panel = page.getByRole("region", { name: "Which package manager?" });
  await panel.getByRole("radio", { name: "npm", exact: true }).click();
  await page.getByRole("button", { name: "Dismiss all questions" }).click();
  await expect(page.getByText("Discard your answers?")).toBeVisible();
  expect(await violations(page)).toEqual([]);

  await page.getByRole("button", { name: "Keep answering" }).click();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Expand the question card" })).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByText("2 of 3 left")).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

test("the plan-review decision card has no axe violations and approves the plan", async ({ page }) => {
  await page.goto(host.url);
  const plan = "## Plan\n\n1. Add the **schema**\n2. See [the docs](https://example.com/docs)\n\n```ts\nexport const x = 1;\n```";
  await page.getByRole("textbox", { name: "Message" }).fill(`/plan ${plan}`);
  await page.getByRole("button", { name: "Send" }).click();
  const card = page.getByRole("region", { name: "Approve this plan?" });
  await expect(card.getByRole("heading", { name: "Plan", exact: true })).toBeVisible();
  await expect(card.getByRole("link", { name: "the docs" })).toHaveAttribute("rel", "noopener noreferrer nofollow");
  expect(await violations(page)).toEqual([]);

  await card.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("Plan approved.")).toBeVisible();
});

for (const theme of ["light", "dark"] as const) {
  test(`the plan card with a typed note and the notice of a batch answered elsewhere have no axe violations (${theme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(host.url);
    await page.getByRole("textbox", { name: "Message" }).fill("/plan 1. Ship it");
    await page.getByRole("button", { name: "Send" }).click();
    const card = page.getByRole("region", { name: "Approve this plan?" });
    await card.getByRole("textbox", { name: "Anything to add?" }).fill("after the freeze");
    expect(await violations(page)).toEqual([]);
    await card.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByText("Plan approved. Note: after the freeze", { exact: true })).toBeVisible();

    let rpcId: string | null = null;
    page.on("websocket", (socket) =>
      socket.on("framereceived", (frame) => {
        const parsed = JSON.parse(String(frame.payload)) as { type: string; rpcId?: string };
        if (parsed.type === "question/requested") rpcId = parsed.rpcId ?? null;
      }),
    );
    await page.reload();
    await page.getByRole("textbox", { name: "Message" }).fill(`/ask ${JSON.stringify(batch)}`);
    await page.getByRole("button", { name: "Send" }).click();
    const panel = page.getByRole("region", { name: "Which package manager?" });
    await panel.getByRole("radio", { name: "npm", exact: true }).click();
    await page.getByRole("textbox", { name: "Type your answer" }).fill("parley");
    await expect.poll(() => rpcId).not.toBeNull();
    const sessionId = decodeURIComponent(/#session=(.+)$/.exec(page.url())![1]!);
    const answers = [{ id: "pkg", selected: ["yarn"] }, { id: "name", selected: [] }, { id: "features", selected: [] }];
    const receipt = await page.request.post(`${host.url}/api/respond`, { data: { type: "answer", rpcId, sessionId, answers } });
    expect(await receipt.json()).toEqual({ accepted: true });
    const notice = page.getByRole("region", { name: "Answered in another tab" });
    await expect(notice.getByRole("definition")).toHaveText(["npm", "parley"]);
    expect(await violations(page)).toEqual([]);
  });
}
