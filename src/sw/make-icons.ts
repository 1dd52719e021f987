import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";

/**
 * Draws Parley's app icons (the favicon's speech bubble on its blue square) as PNGs into public/icons:
 * `npx tsx src/sw/make-icons.ts`. A maskable icon keeps the bubble inside the central 80 % safe zone on a full bleed.
 */
const BLUE = [0x3b, 0x5b, 0xdb] as const;
const WHITE = [0xff, 0xff, 0xff] as const;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGBA PNG of `size` pixels whose colour at (x, y) in [0, 1)² is `paint`'s. */
export function encodePng(size: number, paint: (x: number, y: number) => readonly number[]): Buffer {
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    const row = y * (size * 4 + 1);
    for (let x = 0; x < size; x++) {
      const [r, g, b, a = 255] = paint((x + 0.5) / size, (y + 0.5) / size);
      rows.set([r!, g!, b!, a], row + 1 + x * 4);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}

/** The favicon's bubble (viewBox 32: body 8..24 × 10..20, tail to 8,25) scaled into a square of side `scale` centred at 0.5. */
function inBubble(x: number, y: number, scale: number): boolean {
  const u = (x - 0.5) / scale * 32 + 16;
  const v = (y - 0.5) / scale * 32 + 16;
  if (u >= 8 && u <= 24 && v >= 10 && v <= 20) return true;
  return v > 20 && v <= 25 && u >= 8 && u <= 14 - (v - 20) * 1.2;
}

function inRoundedSquare(x: number, y: number, radius: number): boolean {
  const dx = Math.max(radius - x, 0, x - (1 - radius));
  const dy = Math.max(radius - y, 0, y - (1 - radius));
  return dx * dx + dy * dy <= radius * radius;
}

const any = (x: number, y: number) => (!inRoundedSquare(x, y, 0.25) ? [0, 0, 0, 0] : inBubble(x, y, 1) ? WHITE : BLUE);
const maskable = (x: number, y: number) => (inBubble(x, y, 0.7) ? WHITE : BLUE);

if (import.meta.filename === process.argv[1]) {
  const out = path.resolve(import.meta.dirname, "../../public/icons");
  mkdirSync(out, { recursive: true });
  for (const size of [192, 512]) {
    writeFileSync(path.join(out, `icon-${size}.png`), encodePng(size, any));
    writeFileSync(path.join(out, `maskable-${size}.png`), encodePng(size, maskable));
  }
}
