import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, randomUUID, verify } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** A browser's side of a subscription: what `PushSubscription.toJSON()` gives, and the private key to read its pushes. */
export interface FakeDevice {
  id: string;
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  /** RFC 8291 (aes128gcm) decryption with this device's keys: exactly the text a phone's browser would hand its worker. */
  decrypt(body: Buffer): string;
}

/** One request the host made to the push service. */
export interface ReceivedPush {
  deviceId: string;
  status: number;
  headers: IncomingMessage["headers"];
  /** The decrypted payload, parsed. */
  payload: Record<string, unknown>;
  /** Ciphertext bytes, for the 4 KB limit. */
  bytes: number;
  /** The VAPID key the request was signed with (`k=` of its Authorization), once its JWT verified for this origin. */
  vapidKey: string;
  /** The contact the JWT names (`sub`). */
  subject: string;
}

export type ScriptedAnswer = { status: number; retryAfter?: string };

export interface FakePushService {
  url: string;
  /** A new device subscribed at this service. */
  device(): FakeDevice;
  /** The next requests for `device` are answered with these, in turn; then 201. */
  answer(device: FakeDevice, ...answers: ScriptedAnswer[]): void;
  readonly received: ReceivedPush[];
  /** Resolves once `count` pushes (any status) reached `device`. */
  waitFor(device: FakeDevice, count: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
}

const b64 = (bytes: Buffer) => bytes.toString("base64url");

/** RFC 8291 / RFC 8188 decryption of one aes128gcm record. */
export function decryptAes128gcm(body: Buffer, receiver: { privateKey: Buffer; publicKey: Buffer }, authSecret: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyIdLength = body[20]!;
  const senderKey = body.subarray(21, 21 + keyIdLength);
  const ciphertext = body.subarray(21 + keyIdLength);
  if (ciphertext.length > recordSize) throw new Error("more than one record");
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(receiver.privateKey);
  const shared = ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), receiver.publicKey, senderKey]);
  const ikm = Buffer.from(hkdfSync("sha256", shared, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("the last record lacks its padding delimiter");
  return padded.subarray(0, end).toString("utf8");
}

/** Checks `Authorization: vapid t=<JWT>, k=<key>` (RFC 8292): an ES256 JWT for this origin, unexpired, with a subject. */
function verifyVapid(header: string | undefined, origin: string): { key: string; subject: string } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!match) throw new Error(`no VAPID authorization: ${header ?? "(none)"}`);
  const [, token, key] = match as unknown as [string, string, string];
  const [head, claims, signature] = token.split(".") as [string, string, string];
  const raw = Buffer.from(key, "base64url");
  const publicKey = createPublicKey({ format: "jwk", key: { kty: "EC", crv: "P-256", x: b64(raw.subarray(1, 33)), y: b64(raw.subarray(33, 65)) } });
  if (!verify("sha256", Buffer.from(`${head}.${claims}`), { key: publicKey, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"))) throw new Error("the VAPID signature does not verify");
  const body = JSON.parse(Buffer.from(claims, "base64url").toString("utf8")) as { aud?: string; exp?: number; sub?: string };
  if (body.aud !== origin) throw new Error(`the VAPID audience is ${String(body.aud)}, not ${origin}`);
  if (typeof body.exp !== "number" || body.exp * 1000 < Date.now()) throw new Error("the VAPID token has expired");
  if (typeof body.sub !== "string") throw new Error("the VAPID token names no subject");
  return { key, subject: body.sub };
}

/** A push service on 127.0.0.1 that takes the host's Web Push requests, checks them and decrypts each payload. */
export async function startFakePushService(): Promise<FakePushService> {
  const devices = new Map<string, { device: FakeDevice; script: ScriptedAnswer[] }>();
  const received: ReceivedPush[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const id = /^\/push\/([^/]+)$/.exec(request.url ?? "")?.[1];
      const entry = id === undefined ? undefined : devices.get(id);
      if (request.method !== "POST" || entry === undefined) {
        response.writeHead(404).end();
        return;
      }
      const body = Buffer.concat(chunks);
      try {
        if (request.headers["content-encoding"] !== "aes128gcm") throw new Error(`content encoding ${String(request.headers["content-encoding"])}`);
        const { key: vapidKey, subject } = verifyVapid(request.headers.authorization, service.url);
        const payload = JSON.parse(entry.device.decrypt(body)) as Record<string, unknown>;
        const answer = entry.script.shift() ?? { status: 201 };
        received.push({ deviceId: entry.device.id, status: answer.status, headers: request.headers, payload, bytes: body.length, vapidKey, subject });
        response.writeHead(answer.status, answer.retryAfter === undefined ? {} : { "Retry-After": answer.retryAfter }).end();
      } catch (error) {
        response.writeHead(400, { "Content-Type": "text/plain" }).end(error instanceof Error ? error.message : "bad push");
        received.push({ deviceId: entry.device.id, status: 400, headers: request.headers, payload: { error: error instanceof Error ? error.message : "bad push" }, bytes: body.length, vapidKey: "", subject: "" });
      }
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const service: FakePushService = {
    url,
    device() {
      const id = randomUUID();
      const ecdh = createECDH("prime256v1");
      const publicKey = ecdh.generateKeys();
      const keys = { privateKey: ecdh.getPrivateKey(), publicKey };
      const auth = randomBytes(16);
      const device: FakeDevice = {
        id,
        subscription: { endpoint: `${url}/push/${id}`, expirationTime: null, keys: { p256dh: b64(publicKey), auth: b64(auth) } },
        decrypt: (body) => decryptAes128gcm(body, keys, auth),
      };
      devices.set(id, { device, script: [] });
      return device;
    },
    answer(device, ...answers) {
      devices.get(device.id)!.script.push(...answers);
    },
    received,
    waitFor(device, count) {
      const mine = () => received.filter((push) => push.deviceId === device.id);
      return new Promise((resolve) => {
        const check = () => {
          if (mine().length < count) return;
          waiters.delete(check);
          resolve(mine());
        };
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return service;
}
