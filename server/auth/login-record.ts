import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { KeyedDigest } from '../security/keyed-digest.ts';
import type {
  LoginRecordKind,
  LoginRecordQuery,
  LoginRecordRow,
} from '../../contract/schemas/login-record.ts';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** How long the record is kept: long enough to look back over a month of an attack. */
export const LOGIN_RECORD_DAYS = 30;

/**
 * The network an address belongs to, for the record: an IPv4 address by its /24, an IPv6 one by its
 * /48 (`addressKey` already cut it to its /64). Only ever stored as a keyed digest.
 */
export function networkOf(address: string): string {
  const v4 = /^(\d{1,3}\.\d{1,3}\.\d{1,3})\.\d{1,3}$/.exec(address);
  if (v4) return `${v4[1]}.0/24`;
  const groups = address.replace(/::\/64$/, '').split(':');
  return `${groups.slice(0, 3).join(':')}::/48`;
}

/**
 * What an administrator can act on after an attack on someone's login (docs/security.md, "Login
 * limits"): per account, hour and kind, how many wrong passwords reached the check, how many
 * attempts a brake refused (and which), how often the account's device token was ignored because
 * its own counter waited (someone guessing with a copy), and when the owner got in past an armed
 * brake. One row per account, hour and kind, counted up in one statement, so an attacker who keeps
 * going adds no rows. No username, password or address: the account's id, and the last attempt's
 * network as a short keyed digest (the same network behind several accounts shows as the same
 * value; the proxy's log, at those times, has the address).
 */
export class LoginRecord {
  constructor(
    private readonly db: Db,
    private readonly digest: KeyedDigest,
  ) {}

  async note(accountId: number, kind: LoginRecordKind, address: string): Promise<void> {
    const now = Date.now();
    const network = (await this.digest.of(`login-record-network:${networkOf(address)}`)).slice(0, 12);
    await this.db
      .insertInto('login_record')
      .values({
        account_id: accountId,
        hour: now - (now % HOUR),
        kind,
        count: 1,
        first_at: now,
        last_at: now,
        last_network: network,
      })
      .onConflict((oc) =>
        oc.columns(['account_id', 'hour', 'kind']).doUpdateSet({
          count: sql<number>`login_record.count + 1`,
          last_at: now,
          last_network: network,
        }),
      )
      .execute();
  }

  /** The record, latest first: of one account or all, from a time on. */
  async list(query: LoginRecordQuery): Promise<LoginRecordRow[]> {
    let q = this.db.selectFrom('login_record').selectAll();
    if (query.accountId !== undefined) q = q.where('account_id', '=', query.accountId);
    if (query.kind !== undefined) q = q.where('kind', '=', query.kind);
    if (query.from) q = q.where('last_at', '>=', Date.parse(query.from) || 0);
    const rows = await q
      .orderBy('last_at', 'desc')
      .orderBy('account_id')
      .orderBy('kind')
      .limit(query.take ?? 200)
      .offset(query.skip ?? 0)
      .execute();
    const iso = (ms: number | string) => new Date(Number(ms)).toISOString();
    return rows.map((r) => ({
      accountId: r.account_id,
      kind: r.kind as LoginRecordKind,
      hour: iso(r.hour),
      count: Number(r.count),
      firstAt: iso(r.first_at),
      lastAt: iso(r.last_at),
      network: r.last_network,
    }));
  }

  /** An erasure: the record of the account goes with it. */
  async forget(accountId: number): Promise<void> {
    await this.db.deleteFrom('login_record').where('account_id', '=', accountId).execute();
  }

  async prune(now = Date.now()): Promise<void> {
    await this.db
      .deleteFrom('login_record')
      .where('last_at', '<', now - LOGIN_RECORD_DAYS * DAY)
      .execute();
  }
}
