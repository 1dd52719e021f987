// The floor `npm start` is measured against: a bare Node HTTP server answering /api/health, started the same way (an npm script).
import { createServer } from "node:http";

const server = createServer((request, response) => {
  response.writeHead(request.url === "/api/health" ? 200 : 404, { "content-type": "application/json" });
  response.end('{"ok":true}');
});
server.listen(Number(process.env.PORT), "127.0.0.1");
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));
