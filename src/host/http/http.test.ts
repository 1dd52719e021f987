import { createServer, type IncomingMessage, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ClientGoneError, readBody } from "./http";

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

/** A server that hands each request to `handle`; resolves with its port. */
async function serve(handle: (request: IncomingMessage) => void): Promise<number> {
  server = createServer((request) => handle(request));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** Sends a POST whose body stops after `sent` of its declared bytes, then drops the connection once the server has the request. */
async function abortMidBody(port: number, arrived: Promise<unknown>): Promise<void> {
  const socket = connect(port, "127.0.0.1");
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  socket.write('POST /api/respond HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"type":');
  await arrived;
  socket.destroy();
}

describe("readBody", () => {
  it("rejects with ClientGoneError when the client goes away while the body is read", async () => {
    let arrived!: (request: IncomingMessage) => void;
    const request = new Promise<IncomingMessage>((resolve) => (arrived = resolve));
    const port = await serve((incoming) => arrived(incoming));
    const reading = request.then((incoming) => readBody(incoming));
    await abortMidBody(port, request);
    await expect(reading).rejects.toBeInstanceOf(ClientGoneError);
  });

  it("rejects with ClientGoneError when the client went away before the read began (the host was busy with something else first)", async () => {
    let arrived!: (request: IncomingMessage) => void;
    const request = new Promise<IncomingMessage>((resolve) => (arrived = resolve));
    const port = await serve((incoming) => arrived(incoming));
    await abortMidBody(port, request);
    const incoming = await request;
    if (!incoming.destroyed) await new Promise((resolve) => incoming.once("close", resolve));
    await expect(readBody(incoming)).rejects.toBeInstanceOf(ClientGoneError);
  });

  it("reads a whole body", async () => {
    server = createServer((incoming, response) => void readBody(incoming).then((body) => response.end(`read ${body.length}: ${body.toString("utf8")}`)));
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { method: "POST", body: '{"a":1}' });
    expect(await response.text()).toBe('read 7: {"a":1}');
  });
});
