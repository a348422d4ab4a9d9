import Dexie, { type DexieOptions, type EntityTable } from 'dexie';
import { sealAtRest, type AtRestKey } from '../base/at-rest.ts';
import type { StateStore } from 'oidc-client-ts';

interface StoredItem {
  key: string;
  value: string;
}

/** The device token's own database (auth-session.ts): it outlives the sign-outs that delete `portal-auth`. */
export const DEVICE_DB = 'portal-device';

/**
 * The worker's own database: tokens live here and nowhere else (never localStorage, never a database
 * the UI opens), so a script in the page cannot read them.
 */
export class AuthDb extends Dexie {
  items!: EntityTable<StoredItem, 'key'>;

  /**
   * `options` carries another IndexedDB (an in-memory one in shared-device mode); `atRest` seals
   * what is stored on disk (the tokens).
   */
  constructor(name = 'portal-auth', options?: DexieOptions, atRest?: AtRestKey) {
    super(name, options);
    if (atRest) this.use(sealAtRest(atRest, () => true));
    this.version(1).stores({ items: 'key' });
  }
}

/** oidc-client-ts's user store, backed by `AuthDb` so every worker of the browser shares one user. */
export class DexieStateStore implements StateStore {
  constructor(private readonly db: AuthDb) {}

  async set(key: string, value: string): Promise<void> {
    await this.db.items.put({ key, value });
  }

  async get(key: string): Promise<string | null> {
    return (await this.db.items.get(key))?.value ?? null;
  }

  async remove(key: string): Promise<string | null> {
    const value = await this.get(key);
    await this.db.items.delete(key);
    return value;
  }

  async getAllKeys(): Promise<string[]> {
    return (await this.db.items.toCollection().primaryKeys()) as string[];
  }
}

/**
 * Stores users without their id_token. The id_token is not needed after sign-in (no redirect
 * sign-out), and oidc-client-ts compares the `auth_time` of a refreshed id_token with the stored one:
 * the reference server stamps a new `auth_time` on every refresh, so with the old id_token stored
 * every refresh more than a second after login was rejected as invalid.
 */
export class WithoutIdToken implements StateStore {
  constructor(private readonly inner: StateStore) {}

  async set(key: string, value: string): Promise<void> {
    await this.inner.set(key, stripIdToken(value));
  }

  get(key: string): Promise<string | null> {
    return this.inner.get(key);
  }

  remove(key: string): Promise<string | null> {
    return this.inner.remove(key);
  }

  getAllKeys(): Promise<string[]> {
    return this.inner.getAllKeys();
  }
}

function stripIdToken(value: string): string {
  try {
    const user = JSON.parse(value) as Record<string, unknown>;
    if (user && typeof user === 'object' && 'id_token' in user) {
      delete user.id_token;
      return JSON.stringify(user);
    }
  } catch {
    // Not a stored user: keep it as it is.
  }
  return value;
}
