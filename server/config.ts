import {
  APP_VARIANTS,
  VARIANT_FEATURES,
  type AppVariant,
  type VariantFeatures,
} from '../contract/variant.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHAT_DAILY_LIMIT_MS } from '../contract/limits.ts';
import { DEFAULT_QUICK_EXIT_URL } from '../contract/first-screen.ts';

/** APP_VARIANT's values: the spec's variant names (contract/variant.ts) in lower case. */
export type VariantKey = Lowercase<AppVariant>;
/** Variant names as the `X-App-Variant` header spells them (SPEC §1), by APP_VARIANT value. */
export const VARIANTS = Object.fromEntries(APP_VARIANTS.map((v) => [v.toLowerCase(), v])) as Record<
  VariantKey,
  AppVariant
>;

/** What the configured variant offers: every gate asks this, never the variant's name. */
export function featuresOf(config: Pick<ServerConfig, 'variant'>): VariantFeatures {
  return VARIANT_FEATURES[VARIANTS[config.variant]];
}

export interface ServerConfig {
  port: number;
  host: string;
  /** A file path means embedded SQLite; postgres://... means PostgreSQL. */
  databaseUrl: string;
  redisUrl: string | undefined;
  variant: VariantKey;
  demoSeed: boolean;
  production: boolean;
  /** Where the built client lives; served when present. */
  clientDir: string;
  /** Registrations allowed per address per 15 minutes (a school behind one address needs room). */
  registrationsPerAddress: number;
  /** DEMO_SEED=1 was given: demo accounts are allowed even on a non-loopback HOST. */
  demoSeedExplicit: boolean;
  /** Others can reach the server: a non-loopback HOST, a PUBLIC_ORIGIN or a TRUST_PROXY. */
  exposed: boolean;
  /** The site's own origin (`https://stod.example`); unset means the request's origin, on loopback only. */
  publicOrigin: string | undefined;
  /** Proxy addresses (or CIDRs, or proxy-addr names such as `loopback`) whose X-Forwarded-For is believed. */
  trustProxy: string[];
  /** Bearer token that opens /metrics to other than loopback addresses. */
  metricsToken: string | undefined;
  /** Encrypts the signing keys at rest when set. */
  signingKeySecret: string | undefined;
  /** The signing key is rotated when it is older than this. */
  signingKeyMaxAgeDays: number;
  /** Staff audit entries are pruned after this many days. */
  auditRetentionDays: number;
  /** Multiplies every content rate limit (tests from one address raise it; 1 in production). */
  rateLimitFactor: number;
  /**
   * This process's name behind a proxy that spreads several (NODE_ID, `n1`, `n2`, ...): it starts every
   * hub connection token so the proxy keeps a connection's requests on its process.
   */
  nodeId: string | undefined;
  /** Open hub connections one account may hold in one process. */
  hubMaxConnectionsPerAccount: number;
  /** Where the child app's quick exit ('Lämna sidan') sends a child: a neutral public page. */
  quickExitUrl: string;
  /**
   * SPEC §9: the live chat time a child has per day (45 minutes). Only the tests shorten it, through
   * CHAT_LIMIT_SECONDS, which a production server refuses.
   */
  chatLimitMs: number;
  /**
   * Test-only fault point (FAULT_KILL_AFTER_CREATE=N): the process kills itself with SIGKILL right
   * after its Nth successful create commits, before the answer leaves. Null: never. A production
   * server refuses it.
   */
  faultKillAfterCreate: number | null;
  /** The virtual assistant's content (ASSISTANT_CONTENT_FILE): re-read whenever the file changes. */
  assistantContentFile: string;
  /**
   * The push services a subscription's endpoint may lead to (PUSH_SERVICE_HOSTS, comma-separated):
   * a host exactly, or `*.example.com` for its subdomains, each on the default https port (443)
   * unless the entry names one: `push.example:8443` for that port, `localhost:*` for any. Anything
   * else is refused, so a child cannot make the server post to an address of their choosing.
   */
  pushServiceHosts: string[];
  /** VAPID `sub` (PUSH_SUBJECT): how a push service reaches the operator, `mailto:` or `https:`. */
  pushSubject: string;
  /**
   * Test-only (PUSH_TEST_CA_FILE): a CA certificate, in PEM, that the push sender trusts besides the
   * usual ones, so tests can run a push service of their own over https. A production server refuses it.
   */
  pushTestCaFile: string | undefined;
}

/** The push services of the browsers the app supports (Chrome, Firefox, Safari, Edge). */
export const DEFAULT_PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  'web.push.apple.com',
  '*.push.apple.com',
  '*.notify.windows.com',
];

function pushServiceHostsOf(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return DEFAULT_PUSH_SERVICE_HOSTS;
  const hosts = value
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const bad = hosts.find((entry) => {
    const [, name, port] = /^((?:\*\.)?[a-z0-9.-]+)(?::(\*|[1-9]\d{0,4}))?$/.exec(entry) ?? [];
    if (!name || name.startsWith('.') || name.endsWith('.') || name.startsWith('*..')) return true;
    return port !== undefined && port !== '*' && Number(port) > 65535;
  });
  if (bad) {
    throw new Error(
      `PUSH_SERVICE_HOSTS must list host names (or *.domain), each with an optional :port or :*, not ${bad}`,
    );
  }
  return hosts;
}

function pushSubjectOf(value: string | undefined, publicOrigin: string | undefined): string {
  if (!value) return publicOrigin?.startsWith('https:') ? publicOrigin : 'mailto:webmaster@localhost';
  if (!/^(mailto:|https:\/\/)\S+$/.test(value))
    throw new Error(`PUSH_SUBJECT must be a mailto: or https: address, not ${value}`);
  return value;
}

/** Test-only: PUSH_TEST_CA_FILE (see ServerConfig.pushTestCaFile), refused with NODE_ENV=production. */
function pushTestCaFileOf(value: string | undefined, production: boolean): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (production) throw new Error('PUSH_TEST_CA_FILE is for tests only and not allowed in production');
  return path.resolve(value);
}

/** The content file in the repository; the provider edits it (or points ASSISTANT_CONTENT_FILE elsewhere). */
export const DEFAULT_ASSISTANT_CONTENT_FILE = fileURLToPath(
  new URL('./assistant/content.sv.json', import.meta.url),
);

function quickExitUrlOf(value: string | undefined): string {
  if (!value) return DEFAULT_QUICK_EXIT_URL;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`QUICK_EXIT_URL must be a web address such as https://www.smhi.se/, not ${value}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error('QUICK_EXIT_URL must be http(s)');
  return url.toString();
}

/**
 * Test-only: CHAT_LIMIT_SECONDS shortens the daily chat limit so that an end-to-end test sees a chat
 * end without waiting 45 minutes. Refused with NODE_ENV=production: no site can be run with it.
 */
function chatLimitMsOf(value: string | undefined, production: boolean): number {
  if (value === undefined || value === '') return CHAT_DAILY_LIMIT_MS;
  if (production) throw new Error('CHAT_LIMIT_SECONDS is for tests only and not allowed in production');
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds <= 0)
    throw new Error(`CHAT_LIMIT_SECONDS must be a whole number of seconds, not ${value}`);
  return seconds * 1000;
}

/** Test-only: FAULT_KILL_AFTER_CREATE (see ServerConfig.faultKillAfterCreate), refused with NODE_ENV=production. */
function faultKillAfterCreateOf(value: string | undefined, production: boolean): number | null {
  if (value === undefined || value === '') return null;
  if (production) throw new Error('FAULT_KILL_AFTER_CREATE is for tests only and not allowed in production');
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`FAULT_KILL_AFTER_CREATE must be a whole number of creates, not ${value}`);
  return n;
}

const LOOPBACK_HOSTS = new Set(['localhost', '::1', '[::1]']);
export const isLoopbackHost = (host: string): boolean =>
  LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

const FALSY = ['0', 'false', 'off', 'no'];
const positive = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

function originOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_ORIGIN must be an origin such as https://stod.example, not ${value}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('PUBLIC_ORIGIN must be http(s)');
  return url.origin;
}

function nodeIdOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  // Letters and digits only: it goes into a token that the proxy matches up to the first dot.
  if (!/^[A-Za-z0-9]{1,16}$/.test(value))
    throw new Error(`NODE_ID must be 1-16 letters or digits, not ${value}`);
  return value;
}

/** A production secret is long enough not to be guessed (32 random characters, say `openssl rand -hex 16`). */
export const MIN_SIGNING_KEY_SECRET_LENGTH = 32;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const variant = (env.APP_VARIANT ?? 'barn').toLowerCase();
  if (!(variant in VARIANTS)) {
    throw new Error(`APP_VARIANT must be one of ${Object.keys(VARIANTS).join(', ')}`);
  }
  const production = env.NODE_ENV === 'production';
  const host = env.HOST ?? '127.0.0.1';
  const loopback = isLoopbackHost(host);
  const demoSeedExplicit = env.DEMO_SEED === '1';
  const publicOrigin = originOf(env.PUBLIC_ORIGIN);
  // Reachable by others: bound beyond loopback, or behind a proxy (a public origin or proxies named).
  const exposed = !loopback || !!publicOrigin || !!env.TRUST_PROXY;
  // Demo accounts (a counsellor who can read every queued child) only where nobody else can reach
  // them, unless asked for by name.
  const demoSeed =
    env.DEMO_SEED === undefined
      ? !production && !exposed
      : demoSeedExplicit || (!FALSY.includes(env.DEMO_SEED) && !exposed);
  if (production && (env.SIGNING_KEY_SECRET ?? '').length < MIN_SIGNING_KEY_SECRET_LENGTH) {
    throw new Error(
      `SIGNING_KEY_SECRET must be set (at least ${MIN_SIGNING_KEY_SECRET_LENGTH} characters) with NODE_ENV=production: without it a copy of the database holds the keys that sign every login`,
    );
  }
  if (!loopback && !publicOrigin) {
    throw new Error(
      `PUBLIC_ORIGIN must be set when HOST (${host}) is not a loopback address: the Host header of a request is not to be trusted`,
    );
  }
  return {
    port: Number(env.PORT ?? 8080),
    host,
    databaseUrl: env.DATABASE_URL ?? 'data/app.db',
    redisUrl: env.REDIS_URL || undefined,
    variant: variant as VariantKey,
    demoSeed,
    production,
    clientDir: path.resolve(env.CLIENT_DIR ?? 'dist'),
    registrationsPerAddress: Math.max(1, Number(env.REGISTRATIONS_PER_ADDRESS) || 40),
    demoSeedExplicit,
    exposed,
    publicOrigin,
    trustProxy: (env.TRUST_PROXY ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    metricsToken: env.METRICS_TOKEN || undefined,
    signingKeySecret: env.SIGNING_KEY_SECRET || undefined,
    signingKeyMaxAgeDays: positive(env.SIGNING_KEY_MAX_AGE_DAYS, 90),
    auditRetentionDays: positive(env.AUDIT_RETENTION_DAYS, 365),
    rateLimitFactor: positive(env.RATE_LIMIT_FACTOR, 1),
    hubMaxConnectionsPerAccount: positive(env.HUB_MAX_CONNECTIONS_PER_ACCOUNT, 10),
    nodeId: nodeIdOf(env.NODE_ID),
    quickExitUrl: quickExitUrlOf(env.QUICK_EXIT_URL),
    chatLimitMs: chatLimitMsOf(env.CHAT_LIMIT_SECONDS, production),
    faultKillAfterCreate: faultKillAfterCreateOf(env.FAULT_KILL_AFTER_CREATE, production),
    assistantContentFile: path.resolve(env.ASSISTANT_CONTENT_FILE ?? DEFAULT_ASSISTANT_CONTENT_FILE),
    pushServiceHosts: pushServiceHostsOf(env.PUSH_SERVICE_HOSTS),
    pushSubject: pushSubjectOf(env.PUSH_SUBJECT, publicOrigin),
    pushTestCaFile: pushTestCaFileOf(env.PUSH_TEST_CA_FILE, production),
  };
}
