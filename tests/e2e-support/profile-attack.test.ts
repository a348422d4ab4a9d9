import 'fake-indexeddb/auto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serialize } from 'node:v8';
import Dexie from 'dexie';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  attackProfile,
  leveldbLogRecords,
  leveldbTableBlocks,
  snappyDecompress,
} from '../../e2e/support/profile-attack.ts';
import { AtRestKey } from '../../worker/base/at-rest.ts';
import { MemoryKeyFile } from '../worker/memory-key-file.ts';
import { AuthDb } from '../../worker/auth/user-store.ts';
import { PortalDb } from '../../worker/base/db.ts';

// The attack of e2e/support/profile-attack.ts must find what it looks for, or its "nothing found"
// after a logout proves nothing. Rows are sealed here by the app's own code (at-rest.ts under the
// worker's databases, on fake-indexeddb) with a key whose bytes the test knows; the envelopes and
// the key are then laid out as Chromium lays out an origin's IndexedDB files: V8-serialised values
// in LevelDB write batches, in a log whose 32 KiB blocks cut records, and in a table whose blocks
// are Snappy-compressed (by the small compressor below, so that copies replace repeated bytes).

const WORDS = 'Min pappa slår mig';
/** Shaped as the server makes them: 32 bytes, base64url. */
const REFRESH_TOKEN = Buffer.from(Array.from({ length: 32 }, (_, i) => i * 5 + 1)).toString('base64url');
const KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 73 + 11) & 0xff);

/** The envelope strings at-rest.ts stores, by row. */
let sealed: { user: string; profile: string; keyId: string };

beforeAll(async () => {
  // The key file as the app makes it (a key id, then the raw key), with bytes the test knows.
  const file = new MemoryKeyFile();
  await file.create(Uint8Array.from([...Buffer.from('attack01', 'latin1'), ...KEY]));
  const key = new AtRestKey(file, 'attack-legacy-key');
  const auth = new AuthDb('attack-auth', undefined, key);
  const data = new PortalDb('attack-data', undefined, key);
  // As oidc-client-ts stores a user (worker/auth/user-store.ts): the token response as JSON, in JSON.
  const user = {
    access_token: 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiIxMiJ9.c2lnbmF0dXJl',
    refresh_token: REFRESH_TOKEN,
  };
  await auth.items.put({ key: 'user:http://127.0.0.1:8190:portal-web', value: JSON.stringify(user) });
  await data.profile.put({
    id: 'current',
    username: '',
    loginName: WORDS,
    contactId: 9,
    properties: {},
    createdAt: new Date().toISOString(),
  });
  // What IndexedDB holds: read without the middleware.
  const storedOf = async (name: string, table: string) => {
    const raw = await new Dexie(name).open();
    const [row] = (await raw.table(table).toArray()) as Array<{ $sealed: string }>;
    raw.close();
    return row!.$sealed;
  };
  const userEnvelope = await storedOf('attack-auth', 'items');
  sealed = {
    user: userEnvelope,
    profile: await storedOf('attack-data', 'profile'),
    keyId: userEnvelope.slice(0, 8),
  };
  auth.close();
  data.close();
});

/** A value as Blink stores it in IndexedDB: its own header (version 21, trailer offset), then V8's. */
function blinkValue(v8: Uint8Array): Uint8Array {
  return Buffer.concat([Buffer.from([0xff, 0x15, 0xfe, ...new Array<number>(12).fill(0)]), v8]);
}

/** A sealed row as V8 serialises it: the plain key beside `$sealed`, a one-byte (Latin-1) string. */
function sealedRow(id: string, envelope: string): Uint8Array {
  return blinkValue(serialize({ key: id, $sealed: envelope }));
}

/**
 * The key's record in `portal-key` as Chromium writes it: Blink's CryptoKey host object ('\\', 'K',
 * AES, AES-GCM, 32 bytes, encrypt|decrypt) with the raw key bytes inside.
 */
function keyRecord(keyId: string, key: Uint8Array): Uint8Array {
  const head = Buffer.from(
    `\xff\x0fo"\x02id"\x07current"\x05keyId"\x08${keyId}"\x03key\\K\x01\x09\x20\x06\x20`,
    'latin1',
  );
  return blinkValue(Buffer.concat([head, key, Buffer.from('{\x03', 'latin1')]));
}

function varint(value: number): number[] {
  const bytes: number[] = [];
  for (; value >= 0x80; value = Math.floor(value / 0x80)) bytes.push((value & 0x7f) | 0x80);
  bytes.push(value);
  return bytes;
}

/** A LevelDB write batch: sequence, count, then each put (type 1, key, value). */
function writeBatch(values: Uint8Array[]): Uint8Array {
  const head = Buffer.alloc(12);
  head.writeUInt32LE(values.length, 8);
  const puts = values.map((value, i) => {
    const key = Buffer.from(`\x00\x01\x01\x01row-${i}`, 'latin1');
    return Buffer.concat([
      Buffer.from([1, ...varint(key.length)]),
      key,
      Buffer.from(varint(value.length)),
      value,
    ]);
  });
  return Buffer.concat([head, ...puts]);
}

const LOG_BLOCK = 32 * 1024;

/** A LevelDB log of `records`: 32 KiB blocks, a 7-byte header before each fragment (checksums left zero). */
function leveldbLog(records: Uint8Array[]): Uint8Array {
  const out: number[] = [];
  for (const record of records) {
    let at = 0;
    do {
      const left = LOG_BLOCK - (out.length % LOG_BLOCK);
      if (left < 7) out.push(...new Array<number>(left).fill(0));
      const room = LOG_BLOCK - (out.length % LOG_BLOCK) - 7;
      const length = Math.min(room, record.length - at);
      const first = at === 0;
      const last = at + length === record.length;
      const type = first && last ? 1 : first ? 2 : last ? 4 : 3;
      out.push(0, 0, 0, 0, length & 0xff, length >> 8, type, ...record.subarray(at, at + length));
      at += length;
    } while (at < record.length);
  }
  return Uint8Array.from(out);
}

/** Snappy's raw format, greedily: a copy wherever 4 bytes repeat within 64 KiB, literals elsewhere. */
function snappyCompress(input: Uint8Array): Uint8Array {
  const out: number[] = [...varint(input.length)];
  const literal = (from: number, to: number) => {
    for (let p = from; p < to; p += 65536) {
      const n = Math.min(65536, to - p) - 1;
      if (n < 60) out.push(n << 2);
      else if (n < 256) out.push(60 << 2, n);
      else out.push(61 << 2, n & 0xff, n >> 8);
      out.push(...input.subarray(p, p + n + 1));
    }
  };
  const last = new Map<number, number>();
  const word = (p: number) =>
    input[p]! | (input[p + 1]! << 8) | (input[p + 2]! << 16) | (input[p + 3]! << 24);
  let pending = 0;
  for (let p = 0; p + 4 <= input.length;) {
    const candidate = last.get(word(p));
    last.set(word(p), p);
    if (candidate === undefined || p - candidate > 0xffff || word(candidate) !== word(p)) {
      p++;
      continue;
    }
    let length = 4;
    while (p + length < input.length && input[candidate + length] === input[p + length]) length++;
    literal(pending, p);
    for (let left = length; left > 0;) {
      const n = Math.min(64, left);
      out.push(((n - 1) << 2) | 2, (p - candidate) & 0xff, (p - candidate) >> 8);
      left -= n;
    }
    p += length;
    pending = p;
  }
  literal(pending, input.length);
  return Uint8Array.from(out);
}

/** A LevelDB table of one Snappy-compressed data block holding `values` (index and metaindex plain). */
function leveldbTable(values: Uint8Array[]): Uint8Array {
  const block = (entries: Array<[key: Uint8Array, value: Uint8Array]>) =>
    Buffer.concat([
      ...entries.map(([key, value]) =>
        Buffer.concat([Buffer.from([0, ...varint(key.length), ...varint(value.length)]), key, value]),
      ),
      Buffer.from([0, 0, 0, 0, 1, 0, 0, 0]), // one restart point, at 0
    ]);
  const data = snappyCompress(block(values.map((value, i) => [Buffer.from(`row-${i}`), value])));
  const handle = (offset: number, size: number) => Buffer.from([...varint(offset), ...varint(size)]);
  const metaAt = data.length + 5;
  const meta = block([]);
  const indexAt = metaAt + meta.length + 5;
  const index = block([[Buffer.from('row-z'), handle(0, data.length)]]);
  const footer = Buffer.alloc(48);
  Buffer.concat([handle(metaAt, meta.length), handle(indexAt, index.length)]).copy(footer);
  Buffer.from([0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb]).copy(footer, 40);
  const trailer = (type: number) => Buffer.from([type, 0, 0, 0, 0]);
  return Buffer.concat([data, trailer(1), meta, trailer(0), index, trailer(0), footer]);
}

const contains = (bytes: Uint8Array, part: Uint8Array | string) =>
  Buffer.from(bytes).includes(typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part));

const profiles: string[] = [];
afterEach(async () => {
  await Promise.all(profiles.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A profile folder holding `files` (paths under `Default/`). */
async function profileWith(files: Record<string, Uint8Array>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'attack-profile-'));
  profiles.push(dir);
  for (const [file, bytes] of Object.entries(files)) {
    const at = path.join(dir, 'Default', file);
    await mkdir(path.dirname(at), { recursive: true });
    await writeFile(at, bytes);
  }
  return dir;
}

const LEVELDB = 'IndexedDB/http_127.0.0.1_8190.indexeddb.leveldb';

/**
 * A log whose first block boundary falls in the middle of the key's bytes, and whose second in the
 * middle of the profile row's envelope: neither lies whole in the file, only in its records.
 */
function logCuttingKeyAndEnvelope(key: Uint8Array): Uint8Array {
  const keyValue = keyRecord(sealed.keyId, key);
  const profileValue = sealedRow('current', sealed.profile);
  const batch = (filler: number) =>
    writeBatch([keyValue, new Uint8Array(filler).fill(0x20), profileValue, sealedRow('user', sealed.user)]);
  const firstRecordStart = 7 + 7; // a whole filler record of its own comes first, then this one's header
  const keyInBatch = Buffer.from(batch(0)).indexOf(Buffer.from(key));
  const fillerRecord = LOG_BLOCK - 16 - keyInBatch - firstRecordStart;
  const envelopeInBatch = Buffer.from(batch(0)).indexOf(Buffer.from(sealed.profile, 'latin1'));
  // Past the first cut the batch's bytes are 7 further on (the next fragment's header).
  const filler = 2 * LOG_BLOCK - 40 - (firstRecordStart + fillerRecord + 7) - envelopeInBatch;
  return leveldbLog([new Uint8Array(fillerRecord).fill(0x2e), batch(filler)]);
}

describe('the attack on a profile folder', () => {
  it('decompresses Snappy as it was compressed: literals of every length, copies that overlap', () => {
    const input = Buffer.concat([
      Buffer.from('KOMPRIMERBAR '.repeat(400)),
      Buffer.from(KEY),
      Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 251)),
    ]);
    const compressed = snappyCompress(input);
    expect(compressed.length).toBeLessThan(input.length / 1.5);
    expect(Buffer.from(snappyDecompress(compressed))).toEqual(input);
    expect(() => snappyDecompress(compressed.subarray(0, compressed.length - 10))).toThrow();
  });

  it('finds the key in a plain file, opens every row of its id, and finds the refresh token in them', async () => {
    const file = Buffer.concat([
      Buffer.from('other bytes'),
      sealedRow('user', sealed.user),
      keyRecord(sealed.keyId, KEY),
      sealedRow('current', sealed.profile),
    ]);
    const report = await attackProfile(await profileWith({ 'File System/000/t/00/00000001': file }));

    expect(report.folders).toEqual(['File System']);
    expect(report.keyIds).toEqual([sealed.keyId]);
    expect(report.keys).toEqual([
      {
        keyId: sealed.keyId,
        key: Buffer.from(KEY).toString('hex'),
        where: [expect.stringMatching(/^Default\/File System\/000\/t\/00\/00000001 @\d+$/)],
      },
    ]);
    expect(report.opened.map((row) => row.plaintext)).toEqual([
      expect.stringContaining(REFRESH_TOKEN),
      expect.stringContaining(WORDS),
    ]);
    const token = report.tokens.find((t) => t.value === REFRESH_TOKEN);
    expect(token?.kind).toBe('refresh');
    expect(token?.where).toEqual([expect.stringMatching(/^row opened with key /)]);
    expect(report.tokens.some((t) => t.kind === 'jwt')).toBe(true);
  });

  it('finds a key kept as text in the origin private file system: a JWK, base64, hex', async () => {
    const jwk = JSON.stringify({ kty: 'oct', alg: 'A256GCM', k: Buffer.from(KEY).toString('base64url') });
    for (const text of [jwk, Buffer.from(KEY).toString('base64'), Buffer.from(KEY).toString('hex')]) {
      const report = await attackProfile(
        await profileWith({
          'File System/000/t/00/00000001': Buffer.from(text),
          [`${LEVELDB}/000003.log`]: leveldbLog([writeBatch([sealedRow('current', sealed.profile)])]),
        }),
      );
      expect(report.keys.map((k) => k.key)).toEqual([Buffer.from(KEY).toString('hex')]);
      expect(report.opened.map((row) => row.plaintext)).toEqual([expect.stringContaining(WORDS)]);
    }
  });

  it('finds the key and the rows across a LevelDB log’s block boundaries', async () => {
    const log = logCuttingKeyAndEnvelope(KEY);
    // The point of the case: the file itself holds neither whole.
    expect(contains(log, KEY)).toBe(false);
    expect(contains(log, sealed.profile)).toBe(false);
    expect(leveldbLogRecords(log).joins.length).toBeGreaterThan(0);

    const report = await attackProfile(await profileWith({ [`${LEVELDB}/000003.log`]: log }));

    expect(report.keys.map((k) => k.where)).toEqual([
      [expect.stringMatching(/000003\.log \(log records\) @\d+$/)],
    ]);
    expect(report.opened.map((row) => row.plaintext).sort()).toEqual(
      [expect.stringContaining(WORDS), expect.stringContaining(REFRESH_TOKEN)].sort(),
    );
    expect(report.tokens.map((t) => t.value)).toContain(REFRESH_TOKEN);
  });

  it('finds the key and the rows inside a Snappy-compressed LevelDB table block', async () => {
    // The key's second half also lies earlier in the block, so the compressor copies it: the
    // compressed file never holds the key's 32 bytes in a row, nor the second row's `$sealed`.
    const table = leveldbTable([
      Buffer.concat([Buffer.from('earlier value '), Buffer.from(KEY.subarray(16))]),
      sealedRow('user', sealed.user),
      keyRecord(sealed.keyId, KEY),
      sealedRow('current', sealed.profile),
    ]);
    expect(contains(table, KEY)).toBe(false);
    expect(leveldbTableBlocks(table).blocks.map((b) => b.compressed)).toEqual([false, true]);

    const report = await attackProfile(await profileWith({ [`${LEVELDB}/000005.ldb`]: table }));

    expect(report.keys.map((k) => k.where)).toEqual([
      [expect.stringMatching(/000005\.ldb \(block @0, Snappy\) @\d+$/)],
    ]);
    expect(report.opened).toHaveLength(2);
    expect(report.tokens.map((t) => t.value)).toContain(REFRESH_TOKEN);
  });

  it('finds a row in a value Blink compressed itself (FF 11 02 + Snappy), in a log record', async () => {
    // The envelope's tail also comes earlier in the value, so the compressed bytes never hold it whole.
    const value = Buffer.concat([
      Buffer.from(sealed.profile.slice(-40), 'latin1'),
      sealedRow('current', sealed.profile),
      Buffer.from('"\x07$sealed'.repeat(50), 'latin1'),
    ]);
    const compressed = Buffer.concat([Buffer.from([0xff, 0x11, 0x02]), snappyCompress(value)]);
    const log = leveldbLog([writeBatch([keyRecord(sealed.keyId, KEY), compressed])]);
    expect(contains(log, sealed.profile)).toBe(false);

    const report = await attackProfile(await profileWith({ [`${LEVELDB}/000003.log`]: log }));

    expect(report.opened.map((row) => [row.where, row.plaintext])).toEqual([
      [expect.stringMatching(/value @\d+ \(Blink Snappy\) @\d+$/), expect.stringContaining(WORDS)],
    ]);
  });

  it('finds nothing where the key’s bytes are gone (zeroed), however the files are laid out', async () => {
    const zero = new Uint8Array(32);
    const started = performance.now();
    const report = await attackProfile(
      await profileWith({
        [`${LEVELDB}/000003.log`]: logCuttingKeyAndEnvelope(zero),
        [`${LEVELDB}/000005.ldb`]: leveldbTable([
          keyRecord(sealed.keyId, zero),
          sealedRow('user', sealed.user),
        ]),
        'File System/000/t/00/00000001': Buffer.concat([
          keyRecord(sealed.keyId, zero),
          sealedRow('x', sealed.user),
        ]),
      }),
    );

    // The envelopes are all there, found as before, and stay shut.
    expect(report.keyIds).toEqual([sealed.keyId]);
    expect(report.envelopes).toBe(2);
    expect(report.windows).toBeGreaterThan(2 * LOG_BLOCK);
    expect(report.keys).toEqual([]);
    expect(report.opened).toEqual([]);
    expect(report.tokens.map((t) => t.value)).not.toContain(REFRESH_TOKEN);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
