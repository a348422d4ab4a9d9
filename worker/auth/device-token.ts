import type { StateStore } from 'oidc-client-ts';

/** Where the device token is kept, bound to the login it was issued at. */
const BOUND_KEY = 'portal-device-token-bound';
/**
 * Where the last design kept a token of the app's own making, in clear: removed on sight. The
 * server no longer honours such tokens (they were never issued by it), so it is only a leftover.
 */
const LEGACY_KEY = 'portal-device-token';
/** The server's tokens are 32 random bytes, base64url. */
const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const SALT_BYTES = 16;
/**
 * PBKDF2-SHA-256 rounds of the mask. Nothing on the device can tell a right password from a wrong
 * one (see `forLogin`), so they are not what stands between a copy of the profile and the token; they
 * keep the server's digest of the token (`login_devices`) from being a fast check of password
 * guesses for whoever holds both a profile copy and the server's database and secret (a slower one,
 * the password hash, is there anyway). Some 0.1 s on a phone, once per login.
 */
export const DEVICE_TOKEN_ITERATIONS = 200_000;

interface BoundToken {
  v: 1;
  /** base64url: the PBKDF2 salt, and the token XOR the mask derived with it. */
  salt: string;
  masked: string;
}

/** The device token of one login attempt. */
export interface DeviceTokenLogin {
  /**
   * What to send as the device token: null when the device keeps none. Unmasked with other
   * credentials than it was kept under (a typo, a sibling's account) it is 32 random bytes, which
   * the server takes as no token at all.
   */
  token: string | null;
  /** Keeps `issued`, the server's new token, in place of the old one, under these credentials. */
  keep(issued: string): Promise<void>;
}

/**
 * The device token on the device (docs/security.md, "What the device keeps"; docs/decisions.md says
 * why bound and not sealed): kept XOR a mask derived from the username and password it was issued
 * for, so the stored bytes are a one-time pad with no check value - without the password every
 * guess at it looks as right as any other, and the only place to try one is the server's login,
 * counted like any other attempt. Whoever can unmask it knows the password, and so needs no token
 * to sign in. It survives sign-outs and quick exits (it lives in `portal-device`) so that the next
 * login on this device still has it; one is kept per device, for the account that signed in last.
 */
export class BoundDeviceToken {
  constructor(
    private readonly store: StateStore,
    private readonly iterations = DEVICE_TOKEN_ITERATIONS,
  ) {}

  async forLogin(username: string, password: string): Promise<DeviceTokenLogin> {
    if ((await this.store.get(LEGACY_KEY)) !== null) await this.store.remove(LEGACY_KEY);
    const kept = boundTokenOf(await this.store.get(BOUND_KEY));
    // One derivation per login: the new token is kept under the same salt as the old one was.
    const salt = kept ? fromBase64Url(kept.salt) : crypto.getRandomValues(new Uint8Array(SALT_BYTES));
    const mask = await this.maskOf(salt, username, password);
    return {
      token: kept ? toBase64Url(xor(fromBase64Url(kept.masked), mask)) : null,
      keep: async (issued) => {
        if (!TOKEN_PATTERN.test(issued)) return;
        const bound: BoundToken = {
          v: 1,
          salt: toBase64Url(salt),
          masked: toBase64Url(xor(fromBase64Url(issued), mask)),
        };
        await this.store.set(BOUND_KEY, JSON.stringify(bound));
      },
    };
  }

  private async maskOf(salt: Uint8Array, username: string, password: string): Promise<Uint8Array> {
    // As the server reads them: the username trimmed, in any case; the password NFKC-normalised.
    const secret = new TextEncoder().encode(
      `${username.trim().toLowerCase()}\u0000${password.normalize('NFKC')}`,
    );
    const material = await crypto.subtle.importKey('raw', secret, 'PBKDF2', false, ['deriveBits']);
    secret.fill(0);
    const bits = await crypto.subtle.deriveBits(
      { name: 'PBKDF2', hash: 'SHA-256', salt: salt as Uint8Array<ArrayBuffer>, iterations: this.iterations },
      material,
      TOKEN_BYTES * 8,
    );
    return new Uint8Array(bits);
  }
}

function boundTokenOf(stored: string | null): BoundToken | null {
  if (!stored) return null;
  try {
    const value = JSON.parse(stored) as Partial<BoundToken>;
    const fits =
      value.v === 1 &&
      typeof value.salt === 'string' &&
      typeof value.masked === 'string' &&
      fromBase64Url(value.masked).length === TOKEN_BYTES;
    return fits ? (value as BoundToken) : null;
  } catch {
    return null;
  }
}

function xor(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i]! ^ b[i % b.length]!;
  return out;
}

function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return new Uint8Array(0);
  }
}
