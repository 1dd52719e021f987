import { expect, test } from "@playwright/test";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../src/testing/fake-openai-server";
import { SYSTEM_PROMPT } from "../src/host/models/system-prompt";
import { startHost, type TestHost } from "./host";

let fake: FakeOpenAIServer;
let host: TestHost;

test.beforeAll(async () => {
  fake = await startFakeOpenAIServer();
  host = await startHost({ PARLEY_MODEL: "openai:fake-model", OPENAI_BASE_URL: fake.baseURL, OPENAI_API_KEY: "test-key" });
});

test.afterAll(async () => {
  await host.dispose();
  await fake.close();
});

const ASK_ARGS = JSON.stringify({
  questions: [
    { id: "pkg", question: "Which package manager?", options: [{ label: "pnpm (Recommended)" }, { label: "npm" }] },
    { id: "name", question: "What should the project be called?" },
  ],
});

test("a real-model turn through the fake OpenAI server asks in the browser and the model gets the exact answer", async ({ page }) => {
  fake.enqueue(
    {
      kind: "stream",
      chunks: [
        { role: "assistant", content: "Two quick questions." },
        { tool_calls: [{ index: 0, id: "call_setup", type: "function", function: { name: "ask_user_question", arguments: ASK_ARGS.slice(0, 40) } }] },
        { tool_calls: [{ index: 0, function: { arguments: ASK_ARGS.slice(40) } }] },
        { finish_reason: "tool_calls" },
      ],
    },
    {
      kind: "stream",
      delayMs: 30,
      chunks: [{ role: "assistant", content: "Setting up " }, { content: "parley-demo " }, { content: "with pnpm." }, { finish_reason: "stop" }],
    },
  );
  const created = await page.request.post(`${host.url}/api/sessions`, { data: {} });
  const { session } = (await created.json()) as { session: { id: string } };
  await page.goto(`${host.url}/#session=${session.id}`);
  const composer = page.getByRole("textbox", { name: "Message" });

  await composer.fill("Set up a new project");
  await page.getByRole("button", { name: "Send" }).click();

  await expect(page.getByText("Two quick questions.")).toBeVisible();
  const first = page.getByRole("region", { name: "Which package manager?" });
  await expect(first.getByText("Recommended", { exact: true })).toBeVisible();
  await first.getByRole("radio", { name: "pnpm" }).click();
  const second = page.getByRole("region", { name: "What should the project be called?" });
  await expect(second.getByRole("textbox", { name: "Type your answer" })).toBeFocused();
  await page.keyboard.type("parley-demo");
  await page.keyboard.press("Enter");

  await expect(page.getByText("Setting up parley-demo with pnpm.")).toBeVisible();
  await expect(composer).toBeVisible();
  expect(fake.requests.map((request) => [request.path, request.authorization])).toEqual([
    ["/v1/chat/completions", "Bearer test-key"],
    ["/v1/chat/completions", "Bearer test-key"],
  ]);
  expect((fake.requests[1]!.body as { messages: unknown[] }).messages).toEqual([
    { role: "system", content: SYSTEM_PROMPT },
    { role: "user", content: "Set up a new project" },
    {
      role: "assistant",
      content: "Two quick questions.",
      tool_calls: [{ id: "call_setup", type: "function", function: { name: "ask_user_question", arguments: ASK_ARGS } }],
    },
    {
      role: "tool",
      tool_call_id: "call_setup",
      content: '{"answers":[{"id":"pkg","selected":["pnpm (Recommended)"]},{"id":"name","selected":[],"custom":"parley-demo"}]}',
    },
  ]);
  await expect(page.locator("body")).not.toContainText("test-key");
});
