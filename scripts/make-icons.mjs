// Generates the PWA icons in public/ (brand square with a white speech bubble) without an image
// tool: the PNG chunks are written by hand and compressed with node:zlib. Run: node scripts/make-icons.mjs
import { Buffer } from 'node:buffer';
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BRAND = [0x5b, 0x2a, 0x86];
const WHITE = [0xff, 0xff, 0xff];
const publicDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'public');

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * The bubble in unit coordinates (0..1 of the drawable area): a rounded rectangle with a tail at the
 * lower left. `safe` shrinks the drawing into the centre, as maskable icons need (80 % safe zone).
 */
function isBubble(u, v) {
  const [x0, y0, x1, y1, r] = [0.2, 0.24, 0.8, 0.66, 0.09];
  const cx = Math.min(Math.max(u, x0 + r), x1 - r);
  const cy = Math.min(Math.max(v, y0 + r), y1 - r);
  if (u >= x0 && u <= x1 && v >= y0 && v <= y1 && (u - cx) ** 2 + (v - cy) ** 2 <= r * r) return true;
  // Tail: a triangle from the bottom edge down to the left.
  const [ax, ay, bx, by, tx, ty] = [0.3, 0.64, 0.46, 0.64, 0.27, 0.8];
  const d = (px, py, qx, qy) => (u - qx) * (py - qy) - (px - qx) * (v - qy);
  const d1 = d(ax, ay, bx, by);
  const d2 = d(bx, by, tx, ty);
  const d3 = d(tx, ty, ax, ay);
  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
}

/** 4x4 supersampling gives smooth edges without an image library. */
function makePng(size, { safe = 1 } = {}) {
  const raw = Buffer.alloc(size * (1 + size * 3));
  const samples = 4;
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 3);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      let hits = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const u = ((x + (sx + 0.5) / samples) / size - 0.5) / safe + 0.5;
          const v = ((y + (sy + 0.5) / samples) / size - 0.5) / safe + 0.5;
          if (isBubble(u, v)) hits++;
        }
      }
      const a = hits / (samples * samples);
      for (let c = 0; c < 3; c++) raw[row + 1 + x * 3 + c] = Math.round(BRAND[c] * (1 - a) + WHITE[c] * a);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
  <rect width="64" height="64" rx="12" fill="#5b2a86"/>
  <path d="M18.6 15.4h26.8a5.8 5.8 0 0 1 5.8 5.8v15.2a5.8 5.8 0 0 1-5.8 5.8H29.4l-12.1 9.4 2.1-9.4h-.8a5.8 5.8 0 0 1-5.8-5.8V21.2a5.8 5.8 0 0 1 5.8-5.8z" fill="#fff"/>
</svg>
`;

const files = {
  'icon-192.png': makePng(192),
  'icon-512.png': makePng(512),
  'icon-maskable-512.png': makePng(512, { safe: 0.8 }),
  'apple-touch-icon.png': makePng(180),
  'favicon.svg': FAVICON,
};
for (const [name, data] of Object.entries(files)) {
  writeFileSync(path.join(publicDir, name), data);
  console.info(`public/${name}`);
}
