import type { Principal } from '../auth/principal.ts';

/**
 * What a connection holds of the access token it lives by: the token itself (an invocation verifies it
 * again, server/hub/methods.ts) and the principal it was verified as. Immutable, so the connections
 * opened with one token (an account's tabs and devices that share a login's token, a reconnect storm)
 * hold one of each rather than a copy per connection.
 */
export interface Credential {
  readonly token: string;
  readonly principal: Principal;
  /** When the token ends (epoch ms). */
  readonly expiresAtMs: number;
}

interface Held extends Credential {
  /** Connections holding it; it is forgotten at 0. */
  holders: number;
}

/**
 * A string of our own: a token cut out of a longer text (the upgrade URL, an Authorization header) may
 * share that text's memory and keep all of it alive for as long as the connection lives.
 */
const ownCopy = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

/**
 * Roles and scopes come in a few combinations (a child's, a counsellor's, a leader's): one frozen list
 * of each combination serves every principal, bounded so odd tokens cannot grow it without end.
 */
const MAX_SHARED_LISTS = 64;
const sharedLists = new Map<string, readonly string[]>();

function sharedList<T extends string>(list: readonly T[]): readonly T[] {
  const key = list.join('\n');
  const known = sharedLists.get(key);
  if (known) return known as readonly T[];
  const copy = Object.freeze(list.map(ownCopy)) as readonly T[];
  if (sharedLists.size < MAX_SHARED_LISTS) sharedLists.set(key, copy);
  return copy;
}

/** The principal with shared role and scope lists; every other field as it came. */
const compact = (principal: Principal): Principal => ({
  ...principal,
  roles: sharedList(principal.roles),
  scopes: sharedList(principal.scopes),
});

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item, i) => item === b[i]);

/** Whether two verifications of one token came to the same principal (nothing changed in between). */
function samePrincipal(a: Principal, b: Principal): boolean {
  const keys = Object.keys(a) as Array<keyof Principal>;
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => {
    const [x, y] = [a[key], b[key]];
    return Array.isArray(x) && Array.isArray(y) ? sameList(x, y) : x === y;
  });
}

/** The credentials the connections of one hub hold, by token. */
export class Credentials {
  private readonly byToken = new Map<string, Held>();

  /** The credential of this token as verified: the one other connections hold, when it matches. */
  hold(token: string, principal: Principal): Credential {
    const known = this.byToken.get(token);
    if (known && samePrincipal(known.principal, principal)) {
      known.holders++;
      return known;
    }
    const credential: Held = { ...credentialOf(token, principal), holders: 1 };
    // A differing verification of a known token (rare) is held alone; the known one stays shared.
    if (!known) this.byToken.set(credential.token, credential);
    return credential;
  }

  /** A connection let go of `credential` (it closed, or holds a newer token now). */
  release(credential: Credential): void {
    const held = credential as Held;
    if (--held.holders > 0) return;
    if (this.byToken.get(held.token) === held) this.byToken.delete(held.token);
  }

  /** Distinct tokens held (for tests and the bench's reading of them). */
  get size(): number {
    return this.byToken.size;
  }
}

/** A credential of its own, shared with nobody (a connection made without a hub's Credentials). */
export const credentialOf = (token: string, principal: Principal): Credential => ({
  token: ownCopy(token),
  principal: compact(principal),
  expiresAtMs: principal.expiresAt * 1000,
});
