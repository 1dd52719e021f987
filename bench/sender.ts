import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";

export interface Sent {
  status: number;
  /** When the sender wrote the request to its socket, epoch milliseconds on its own clock. */
  sentAt: number;
  /** When the host's question/requested frame for the posted question reached the sender's own /api/mux socket. */
  frameAt?: number;
  rpcId?: string;
  sessionId?: string;
}

const SENDER_TIMEOUT_MS = 20_000;

/**
 * bench/timed-post.mjs in a process of its own: it posts for the bench and notes when each request was written, so an arrival's
 * send time is taken on another process's clock, never inside the host's event loop (which this process shares).
 */
export async function openSender(url: string) {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "timed-post.mjs"), `${url.replace(/^http/, "ws")}/api/mux`], { stdio: ["pipe", "pipe", "inherit"] });
  const answers = new Map<number, (line: Sent & { error?: string }) => void>();
  let ready: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (ready = resolve));
  createInterface({ input: child.stdout }).on("line", (line) => {
    const parsed = JSON.parse(line) as (Sent & { id: number; error?: string }) | { ready: true };
    if ("ready" in parsed) return ready();
    answers.get(parsed.id)?.(parsed);
    answers.delete(parsed.id);
  });
  const exited = new Promise<never>((_, reject) => {
    child.once("exit", (code) => reject(new Error(`the sender exited with ${code}`)));
    child.once("error", reject);
  });
  const bounded = <T>(promise: Promise<T>, what: string) =>
    Promise.race([promise, exited, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the sender did not ${what} in ${SENDER_TIMEOUT_MS} ms`)), SENDER_TIMEOUT_MS).unref())]);
  await bounded(started, "connect");
  let nextId = 0;
  return {
    /** Posts `body` as JSON to `target`; with `question`, also waits for that question's frame on the sender's socket. */
    post(target: string, body: unknown, question?: string): Promise<Sent> {
      const id = nextId++;
      const answered = new Promise<Sent>((resolve, reject) => answers.set(id, ({ error, ...sent }) => (error === undefined ? resolve(sent) : reject(new Error(error)))));
      child.stdin.write(`${JSON.stringify({ id, url: target, body: JSON.stringify(body), question })}\n`);
      return bounded(answered, "answer");
    },
    async close() {
      child.stdin.end();
      if (child.exitCode !== null) return;
      await Promise.race([exited.catch((error: unknown) => error), new Promise((resolve) => setTimeout(resolve, 2000))]);
      if (child.exitCode === null) child.kill();
    },
  };
}

export type Sender = Awaited<ReturnType<typeof openSender>>;
