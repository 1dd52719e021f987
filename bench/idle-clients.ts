import { WebSocket } from "ws";

const [url, countText] = process.argv.slice(2);
const count = Number(countText);
const sockets: WebSocket[] = [];

async function openOne(): Promise<void> {
  const socket = new WebSocket(url!);
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.on("message", (data: Buffer) => {
      if (data.toString("utf8") === '{"type":"synced"}') resolve();
    });
    socket.once("error", reject);
  });
}

for (let index = 0; index < count; index += 50) {
  await Promise.all(Array.from({ length: Math.min(50, count - index) }, openOne));
}
process.stdout.write("ready\n");
process.stdin.resume();
process.stdin.on("end", () => {
  for (const socket of sockets) socket.terminate();
  process.exit(0);
});
