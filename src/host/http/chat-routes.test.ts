import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Chat } from "../sessions/service";
import { chatRoutes, matchesEtag, mediaEtag } from "./chat-routes";
import { HttpError, dispatch, sendError } from "./http";
import { parseRequestTarget } from "../fence/request-target";
import type { StoredMedia } from "../store";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

let server: Server | null = null;

afterEach(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
  server = null;
});

/** The chat routes over HTTP, with a chat that holds only the media in `stored`. */
async function serveMedia(stored: Map<string, StoredMedia>): Promise<string> {
  const chat = { getMedia: async (id: string) => stored.get(id) ?? null } as unknown as Chat;
  const routes = chatRoutes({ chat, throttle: () => undefined });
  server = createServer((request, response) => {
    dispatch(routes, request, response, parseRequestTarget(request.url)!).catch((error: unknown) => {
      if (error instanceof HttpError) sendError(response, error.status, error.code, error.message, error.headers);
      else sendError(response, 500, "INTERNAL", String(error));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe("[mcp-media] GET /api/media/:id caching", () => {
  it("is revalidated on every use, never cached as immutable: private, no-cache with an ETag of the bytes", async () => {
    const url = await serveMedia(new Map([["m1", { id: "m1", sessionId: "s1", mimeType: "image/png", data: PNG }]]));
    const response = await fetch(`${url}/api/media/m1`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
    expect(response.headers.get("etag")).toBe(mediaEtag(PNG));
    expect(Buffer.from(await response.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it("answers 304 without the bytes when If-None-Match names the ETag, and 200 with them when it names another", async () => {
    const url = await serveMedia(new Map([["m1", { id: "m1", sessionId: "s1", mimeType: "image/png", data: PNG }]]));
    const etag = (await fetch(`${url}/api/media/m1`)).headers.get("etag")!;

    const revalidated = await fetch(`${url}/api/media/m1`, { headers: { "if-none-match": etag } });
    expect([revalidated.status, revalidated.headers.get("etag"), revalidated.headers.get("cache-control")]).toEqual([304, etag, "private, no-cache"]);
    expect((await revalidated.arrayBuffer()).byteLength).toBe(0);

    const stale = await fetch(`${url}/api/media/m1`, { headers: { "if-none-match": '"something-else"' } });
    expect(stale.status).toBe(200);
    expect(Buffer.from(await stale.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it("answers a revalidation 404 once the media is gone (its chat was deleted), so the browser cannot keep showing it", async () => {
    const stored = new Map([["m1", { id: "m1", sessionId: "s1", mimeType: "image/png", data: PNG }]]);
    const url = await serveMedia(stored);
    const etag = (await fetch(`${url}/api/media/m1`)).headers.get("etag")!;
    stored.delete("m1");
    const gone = await fetch(`${url}/api/media/m1`, { headers: { "if-none-match": etag } });
    expect(gone.status).toBe(404);
  });

  it("compares If-None-Match weakly, in a list, and honours *", () => {
    const etag = mediaEtag(PNG);
    expect(matchesEtag(undefined, etag)).toBe(false);
    expect(matchesEtag(etag, etag)).toBe(true);
    expect(matchesEtag(`W/${etag}`, etag)).toBe(true);
    expect(matchesEtag(`"a", ${etag} ,"b"`, etag)).toBe(true);
    expect(matchesEtag("*", etag)).toBe(true);
    expect(matchesEtag('"a", "b"', etag)).toBe(false);
    expect(mediaEtag(Buffer.from("other"))).not.toBe(etag);
  });
});
