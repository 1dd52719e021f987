import type { Page } from "@playwright/test";
import type { Sender } from "./sender";

// Question arrival (the README's "What each number is: Browser"): a batch asked through the scripted model's `/ask`,
// each question timed from the sender process's write of its request to the paint that shows it, and split into parts.

/** Questions of one batch; each is a turn of the scripted model, so this one stays at the least that makes a p95. */
export const ARRIVALS_PER_ROUND = 20;

/** Waits, by polling the API, until the session's turn is over. */
export async function waitIdle(url: string, sessionId: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const response = await fetch(`${url}/api/sessions/${sessionId}`);
    const { session } = (await response.json()) as { session: { state: string } };
    if (session.state === "idle") return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`session ${sessionId} did not become idle`);
}

/** Where a question's arrival spends its time in the page, per question: its frame at the socket to the DOM, the DOM to the paint. */
interface PageParts {
  toDom: number[];
  toPaint: number[];
}

/** The message that asks `questions` through the scripted model. */
export const askBody = (questions: object[]) => ({ text: `/ask ${JSON.stringify({ questions })}` });

/** When a page painted the question `text`, by its probe. */
const painted = (target: Page, text: string) =>
  target.waitForFunction((key) => (window as unknown as { __bench: { arrivals: Record<string, number> } }).__bench.arrivals[key], text).then((handle) => handle.jsonValue() as Promise<number>);

/**
 * One batch of ARRIVALS_PER_ROUND questions asked one after another in `sessionId` by the sender process, each timed from the
 * moment the sender wrote its request to the frame after `target` shows it, and dismissed before the next.
 */
async function arrivalBatch(run: { url: string; sessionId: string; target: Page; sender: Sender; tag: string; dismissed?: (text: string) => Promise<void> }) {
  const { url, sessionId, target, sender } = run;
  const latencies: number[] = [];
  const hostParts: number[] = [];
  const pageParts: PageParts = { toDom: [], toPaint: [] };
  for (let index = 0; index < ARRIVALS_PER_ROUND; index++) {
    const text = `Arrival ${run.tag}.${index}?`;
    await waitIdle(url, sessionId);
    const sent = await sender.post(`${url}/api/sessions/${sessionId}/messages`, askBody([{ id: "arrival", question: text, options: [{ label: "Yes" }, { label: "No" }] }]), text);
    if (sent.status !== 202 || sent.rpcId === undefined || sent.frameAt === undefined) throw new Error(`asking ${text} failed with ${sent.status}`);
    const paintedAt = await painted(target, text);
    latencies.push(paintedAt - sent.sentAt);
    hostParts.push(sent.frameAt - sent.sentAt);
    const { received, shown } = await target.evaluate((key) => {
      const bench = (window as unknown as { __bench: { received: Record<string, number>; shown: Record<string, number> } }).__bench;
      return { received: bench.received[key], shown: bench.shown[key] };
    }, text);
    if (received === undefined || shown === undefined) throw new Error(`the page's probe missed the frame or the DOM of ${text}`);
    pageParts.toDom.push(shown - received);
    pageParts.toPaint.push(paintedAt - shown);
    await fetch(`${url}/api/respond`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "cancel", rpcId: sent.rpcId, sessionId }) });
    await run.dismissed?.(text);
  }
  return { latencies, hostParts, pageParts };
}

/**
 * Question arrival, in `run.rounds` rounds: a batch asked in the big session, painted by the app's panel while the bare page's socket
 * is closed, then a batch asked in a second session, painted by the bare page (the app, open on the big session, only lists it).
 */
export async function measureArrivals(run: { url: string; sessionId: string; bareSessionId: string; page: Page; bare: Page; sender: Sender; rounds: number }) {
  const { url, page, bare, sender } = run;
  const app: number[][] = [];
  const baseline: number[][] = [];
  const hostParts = { app: [] as number[], baseline: [] as number[] };
  const pageParts = { app: { toDom: [], toPaint: [] } as PageParts, baseline: { toDom: [], toPaint: [] } as PageParts };
  const listen = (on: boolean) => bare.evaluate((value) => (window as unknown as { __benchListen: (on: boolean) => Promise<void> }).__benchListen(value), on);
  await page.evaluate(() => (window as unknown as { __benchWatchPanel: (on: boolean) => void }).__benchWatchPanel(true));
  for (let round = 0; round < run.rounds; round++) {
    const inApp = await arrivalBatch({ url, sessionId: run.sessionId, target: page, sender, tag: `${round}`, dismissed: (text) => page.getByRole("heading", { name: text }).waitFor({ state: "detached" }) });
    app.push(inApp.latencies);
    await listen(true);
    const inBare = await arrivalBatch({ url, sessionId: run.bareSessionId, target: bare, sender, tag: `${round} bare` });
    baseline.push(inBare.latencies);
    await listen(false);
    hostParts.app.push(...inApp.hostParts);
    hostParts.baseline.push(...inBare.hostParts);
    for (const part of ["toDom", "toPaint"] as const) {
      pageParts.app[part].push(...inApp.pageParts[part]);
      pageParts.baseline[part].push(...inBare.pageParts[part]);
    }
  }
  await page.evaluate(() => (window as unknown as { __benchWatchPanel: (on: boolean) => void }).__benchWatchPanel(false));
  return { app, baseline, hostParts, pageParts };
}
