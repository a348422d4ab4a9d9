import { randomUUID } from 'node:crypto';
import type { BuildOptions } from '../server/app.ts';
import type { ServerConfig, VariantKey } from '../server/config.ts';
import { delayAfter, type DelayRule } from '../server/auth/login-throttle.ts';
import { CLIENT_ID, SCOPE, api, login, startTestServer, type TestServer } from './test-server.ts';

/**
 * The attacker's kit for tests/server/security: a real server with the production limits (not the
 * functional tests' relaxed ones) behind a trusted proxy, so each request can come from an address
 * of the test's choosing (X-Forwarded-For, believed only because TRUST_PROXY names 127.0.0.1).
 */
export async function startTarget(
  options: {
    config?: Partial<ServerConfig>;
    build?: BuildOptions;
    databaseUrl?: string;
    variant?: VariantKey;
  } = {},
): Promise<TestServer> {
  return startTestServer({
    ...options,
    config: { rateLimitFactor: 1, trustProxy: ['127.0.0.1'], ...options.config },
  });
}

/** A password-grant (or personal-code) attempt from `address`. */
export async function tryLogin(
  url: string,
  username: string,
  password: string,
  address: string,
  clientId = CLIENT_ID,
  /** More form fields (a `device_token`). */
  extra: Record<string, string> = {},
): Promise<{ status: number; retryAfter: string | null; body: Record<string, unknown> }> {
  const res = await fetch(`${url}/connect/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': address },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: clientId,
      scope: SCOPE,
      username,
      password,
      ...extra,
    }),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: (await res.json()) as Record<string, unknown>,
  };
}

/**
 * The device token a successful child-app login (or a registration's answer) was issued, as the
 * form field the next login sends it in; the app replaces its token with it.
 */
export function deviceOf(answer: { body: Record<string, unknown> | null }): { device_token: string } {
  const token = answer.body?.device_token ?? answer.body?.deviceToken;
  if (typeof token !== 'string') throw new Error(`no device token in ${JSON.stringify(answer.body)}`);
  return { device_token: token };
}

/** A JSON call from `address` with the caller's token. */
export async function callFrom(
  url: string,
  path: string,
  init: {
    token?: string;
    body?: unknown;
    method?: string;
    address?: string;
    headers?: Record<string, string>;
  },
) {
  const headers: Record<string, string> = { 'X-App-Variant': 'Barn', ...init.headers };
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  if (init.address) headers['X-Forwarded-For'] = init.address;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: Record<string, unknown> | null = null;
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    body = { text };
  }
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body };
}

/** A new child account; its password passes the password policy. */
export async function registerChild(server: TestServer, prefix = 'barn') {
  const username = `${prefix}-${randomUUID().slice(0, 8)}`;
  const password = `Blå-${randomUUID().slice(0, 6)}-Ballong`;
  const res = await api(server.url, '/portal/api/accounts/registercontact', {
    body: { username, password, properties: { birthYear: '2012', gender: 'female', device: 'Mobile' } },
  });
  if (res.status !== 201) throw new Error(`register ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  const tokens = await login(server.url, username, password);
  return { username, password, token: tokens.access_token, refreshToken: tokens.refresh_token };
}

export const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

/**
 * How many attempts a rule can let through in `elapsedMs`: its free ones, then one more each time
 * the growing delay has run out. A burst that takes longer on a slow machine is allowed a few more
 * - and still nowhere near all of them.
 */
export function mostChecked(rule: DelayRule, elapsedMs: number): number {
  let allowed = rule.free;
  let waited = 0;
  for (let n = rule.free; ; n++) {
    waited += delayAfter(rule, n);
    if (waited > elapsedMs) return allowed;
    allowed += 1;
  }
}

/** Runs `burst`, returning its answers and how long it took. */
export async function timed<T>(burst: () => Promise<T>): Promise<{ result: T; elapsedMs: number }> {
  const started = Date.now();
  const result = await burst();
  return { result, elapsedMs: Date.now() - started };
}
