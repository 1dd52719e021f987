import { WebSocket } from "ws";
import { median } from "./stats";

/**
 * Opens `runs` fresh sockets on `baseUrl` one after another and times each from open to `synced`,
 * checking that every replay holds `expected` questions; the first run is a warm-up. Returns the median in ms.
 */
export async function medianReplayMs(baseUrl: string, runs: number, expected: number): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < runs; index++) {
    const started = performance.now();
    const socket = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/api/mux`);
    let replayed = 0;
    await new Promise<void>((resolve, reject) => {
      socket.on("message", (data: Buffer) => {
        const frame = JSON.parse(data.toString("utf8")) as { type: string };
        if (frame.type === "question/requested") replayed++;
        if (frame.type === "synced") resolve();
      });
      socket.once("error", reject);
    });
    socket.terminate();
    if (replayed !== expected) throw new Error(`replayed ${replayed} questions, expected ${expected}`);
    if (index > 0) times.push(performance.now() - started);
  }
  return median(times);
}
