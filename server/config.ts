import path from 'node:path';

/** Variant names as the `X-App-Variant` header spells them (SPEC §1). */
export const VARIANTS = {
  barn: 'Barn',
  gruppstod: 'Gruppstod',
  chatt: 'Chatt',
  peers: 'Peers',
  assistent: 'Assistent',
  main: 'Main',
} as const;
export type VariantKey = keyof typeof VARIANTS;

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
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const variant = (env.APP_VARIANT ?? 'barn').toLowerCase();
  if (!(variant in VARIANTS)) {
    throw new Error(`APP_VARIANT must be one of ${Object.keys(VARIANTS).join(', ')}`);
  }
  const production = env.NODE_ENV === 'production';
  const demoSeed =
    env.DEMO_SEED === undefined ? !production : !['0', 'false', 'off', 'no'].includes(env.DEMO_SEED);
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL ?? 'data/app.db',
    redisUrl: env.REDIS_URL || undefined,
    variant: variant as VariantKey,
    demoSeed,
    production,
    clientDir: path.resolve(env.CLIENT_DIR ?? 'dist'),
    registrationsPerAddress: Math.max(1, Number(env.REGISTRATIONS_PER_ADDRESS) || 20),
  };
}
