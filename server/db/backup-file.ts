import { createHmac, hkdfSync, timingSafeEqual, type Hmac } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { MIN_SIGNING_KEY_SECRET_LENGTH } from '../config.ts';
import type { DatabaseKind } from './database-kind.ts';

/**
 * The file `npm run backup` writes: the database's own copy (a SQLite file or a pg_dump archive) in
 * an envelope signed with an HMAC under the site's SIGNING_KEY_SECRET, so that `npm run restore`
 * refuses a backup that anyone changed after it was made: an edited date, an id, any byte
 * (docs/operations.md, "Backup and restore"; docs/decisions.md).
 *
 *   PORTAL-BACKUP 1\n
 *   {"engine":"sqlite","bytes":N,"made":"2026-12-01T10:00:00.000Z","signed":true}\n
 *   the N bytes of the database's copy
 *   32 bytes: HMAC-SHA256 over everything before them (a signed backup only)
 */

/** A refusal the operator can act on: printed as it is, without a stack. */
export class BackupError extends Error {
  override readonly name = 'BackupError';
}

const MAGIC = Buffer.from('PORTAL-BACKUP 1\n', 'latin1');
const TAG_BYTES = 32;
/** The header is one short line; anything longer is not one of ours. */
const MAX_HEADER_BYTES = 4096;

interface Header {
  engine: DatabaseKind;
  bytes: number;
  made: string;
  signed: boolean;
}

/** What a backup's signature is checked with: the site's secret, and whether it runs in production. */
export interface BackupSigning {
  secret: string | undefined;
  production: boolean;
}

/** The signing of the site whose environment this is (SIGNING_KEY_SECRET, NODE_ENV). */
export function backupSigningOf(env: NodeJS.ProcessEnv = process.env): BackupSigning {
  return { secret: env.SIGNING_KEY_SECRET || undefined, production: env.NODE_ENV === 'production' };
}

/** A key of its own derived from the secret, as the signing keys' and the VAPID keys' ciphers have. */
function backupKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'portal-backups', 'hmac-sha256 v1', 32));
}

/**
 * Without a secret a backup cannot be signed: in production that is refused (a production server
 * does not start without one either), elsewhere the backup is made unsigned and says so.
 */
export function secretToSign(signing: BackupSigning): string | undefined {
  if (signing.production && (signing.secret ?? '').length < MIN_SIGNING_KEY_SECRET_LENGTH) {
    throw new BackupError(
      "With NODE_ENV=production a backup is signed: set the site's SIGNING_KEY_SECRET (the one its servers run with).",
    );
  }
  return signing.secret;
}

/**
 * Writes `target` (created 0600) as the backup of the database copy `payload`: signed when the
 * site has a secret. Answers whether it was signed.
 */
export async function writeBackupFile(
  payload: string,
  target: string,
  engine: DatabaseKind,
  signing: BackupSigning,
): Promise<{ signed: boolean }> {
  const secret = secretToSign(signing);
  const header: Header = {
    engine,
    bytes: fs.statSync(payload).size,
    made: new Date().toISOString(),
    signed: secret !== undefined,
  };
  const head = Buffer.concat([MAGIC, Buffer.from(`${JSON.stringify(header)}\n`, 'utf8')]);
  const hmac = secret === undefined ? null : createHmac('sha256', backupKey(secret));
  async function* envelope() {
    hmac?.update(head);
    yield head;
    for await (const chunk of fs.createReadStream(payload) as AsyncIterable<Buffer>) {
      hmac?.update(chunk);
      yield chunk;
    }
    if (hmac) yield hmac.digest();
  }
  await pipeline(envelope(), fs.createWriteStream(target, { flags: 'w', mode: 0o600 }));
  return { signed: header.signed };
}

/** What a restore learns of a backup before it reads the whole file. */
export interface BackupFileInfo {
  kind: DatabaseKind;
  /** Signed by the site: the signature is checked as the copy is read out (readBackupFile). */
  signed: boolean;
  /** When it was made, from its header (believed only once the signature is checked). */
  made: string | null;
  /** Where the database's copy starts, and how long it is. */
  offset: number;
  bytes: number;
}

/**
 * Which backup `file` is, from its first bytes; null for anything else. A file from before backups
 * were signed (the bare SQLite file or pg_dump archive) counts as an unsigned backup.
 */
export async function backupFileInfo(file: string): Promise<BackupFileInfo | null> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, 'r');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT')
      throw new BackupError(`There is no backup file at ${file}.`);
    throw error;
  }
  try {
    const size = (await handle.stat()).size;
    const head = Buffer.alloc(Math.min(size, MAGIC.length + MAX_HEADER_BYTES));
    await handle.read(head, 0, head.length, 0);
    const bare = engineOf(head);
    if (bare) return { kind: bare, signed: false, made: null, offset: 0, bytes: size };
    if (!head.subarray(0, MAGIC.length).equals(MAGIC)) return null;
    const end = head.indexOf(0x0a, MAGIC.length);
    if (end < 0) return null;
    const header = parseHeader(head.subarray(MAGIC.length, end).toString('utf8'));
    if (!header) return null;
    const offset = end + 1;
    if (size !== offset + header.bytes + (header.signed ? TAG_BYTES : 0)) {
      throw new BackupError(`${file} is cut short or has bytes added: refused.`);
    }
    return { kind: header.engine, signed: header.signed, made: header.made, offset, bytes: header.bytes };
  } finally {
    await handle.close();
  }
}

function parseHeader(line: string): Header | null {
  try {
    const value = JSON.parse(line) as Partial<Header>;
    if (value.engine !== 'sqlite' && value.engine !== 'postgres') return null;
    if (!Number.isSafeInteger(value.bytes) || value.bytes! < 16) return null;
    if (typeof value.made !== 'string' || typeof value.signed !== 'boolean') return null;
    return { engine: value.engine, bytes: value.bytes!, made: value.made, signed: value.signed };
  } catch {
    return null;
  }
}

export const ENGINE: Record<DatabaseKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

async function firstBytes(file: string): Promise<Buffer> {
  const head = Buffer.alloc(16);
  const handle = await fsp.open(file, 'r');
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  return head;
}

/** The engine a database copy's first bytes name; null for anything else. */
function engineOf(head: Buffer): DatabaseKind | null {
  if (head.subarray(0, 16).toString('latin1') === 'SQLite format 3\0') return 'sqlite';
  if (head.subarray(0, 5).toString('latin1') === 'PGDMP') return 'postgres';
  return null;
}

/**
 * Whether a backup of this signing may be restored at all, before anything is read out: a signed
 * one needs the secret; an unsigned one (or one from before backups were signed) is refused in
 * production and wherever the site has a secret, since any of its bytes may have been changed.
 */
export function checkSigningPolicy(file: string, info: BackupFileInfo, signing: BackupSigning): void {
  if (info.signed && !signing.secret) {
    throw new BackupError(
      `${file} is signed: restore it with the site's SIGNING_KEY_SECRET (the one it was made with).`,
    );
  }
  if (!info.signed && (signing.production || signing.secret)) {
    throw new BackupError(
      `${file} is not signed, so nothing shows it is unchanged since it was made: refused ${signing.production ? 'with NODE_ENV=production' : 'on a site with SIGNING_KEY_SECRET'}. Restore a backup made with the site's secret.`,
    );
  }
}

/**
 * Copies the database's copy out of the backup `file` into `into` (created 0600) and checks the
 * signature over the bytes it read: the restore then uses those very bytes, never the file again.
 * Throws, leaving `into` for the caller to remove, when the signature does not match.
 */
export async function readBackupFile(
  file: string,
  info: BackupFileInfo,
  into: string,
  signing: BackupSigning,
): Promise<void> {
  checkSigningPolicy(file, info, signing);
  const handle = await fsp.open(file, 'r');
  try {
    const hmac = info.signed ? createHmac('sha256', backupKey(signing.secret!)) : null;
    if (hmac) {
      const head = Buffer.alloc(info.offset);
      await handle.read(head, 0, head.length, 0);
      hmac.update(head);
    }
    await pipeline(
      handle.createReadStream({ start: info.offset, end: info.offset + info.bytes - 1, autoClose: false }),
      signed(hmac),
      fs.createWriteStream(into, { flags: 'w', mode: 0o600 }),
    );
    const copied = (await fsp.stat(into)).size;
    if (copied !== info.bytes) throw new BackupError(`${file} changed while it was read: refused.`);
    if (hmac) {
      const tag = Buffer.alloc(TAG_BYTES);
      const { bytesRead } = await handle.read(tag, 0, TAG_BYTES, info.offset + info.bytes);
      if (bytesRead !== TAG_BYTES || !timingSafeEqual(tag, hmac.digest())) {
        throw new BackupError(
          `${file} was changed after it was made, or made with another SIGNING_KEY_SECRET: its signature does not match, refused.`,
        );
      }
    }
    if (engineOf(await firstBytes(into)) !== info.kind) {
      throw new BackupError(`${file} does not hold the ${ENGINE[info.kind]} copy its header names: refused.`);
    }
  } finally {
    await handle.close();
  }
}

/** A pass-through that feeds what passes into `hmac`. */
function signed(hmac: Hmac | null) {
  return async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      hmac?.update(chunk);
      yield chunk;
    }
  };
}
