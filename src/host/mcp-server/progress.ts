/** How often a waiting call tells the client it is still alive. */
export const PROGRESS_INTERVAL_MS = 15_000;
export const PROGRESS_MESSAGE = "waiting for the human";

export interface ProgressParams {
  progressToken: string | number;
  progress: number;
  message: string;
}

/**
 * Sends `notifications/progress` every `intervalMs` while a call waits, counting up from 1, when the
 * client gave a progress token; returns the function that stops it. A failed send is reported, not retried.
 */
export function startProgress(
  token: string | number | undefined,
  send: (params: ProgressParams) => Promise<void>,
  onError: (error: unknown) => void,
  intervalMs: number = PROGRESS_INTERVAL_MS,
): () => void {
  if (token === undefined) return () => undefined;
  let progress = 0;
  const timer = setInterval(() => {
    progress += 1;
    send({ progressToken: token, progress, message: PROGRESS_MESSAGE }).catch(onError);
  }, intervalMs);
  return () => clearInterval(timer);
}
