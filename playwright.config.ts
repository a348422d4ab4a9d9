import { defineConfig } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';

/**
 * Two real servers serve the built client: the child app (Barn) and the group-support variant
 * (Gruppstod), each with a fresh SQLite database seeded with the demo data. Specs under
 * e2e/gruppstod/ run against the second.
 */
const BARN_PORT = Number(process.env.E2E_PORT ?? 8190);
const GRUPPSTOD_PORT = BARN_PORT + 1;
// Kept in the environment, so the test workers (which load this file again) find the same files.
const runDir = (process.env.PORTAL_E2E_RUN_DIR ??= path.join(
  os.tmpdir(),
  `portal-e2e-${process.pid}-${Date.now()}`,
));
/** The SQLite file of a variant's server, for the few tests that write what no API writes. */
export const e2eDatabaseUrl = (variant: string) => path.join(runDir, `${variant}.db`);

const server = (port: number, variant: string) => ({
  command: 'npx tsx server/main.ts',
  url: `http://127.0.0.1:${port}/healthz`,
  reuseExistingServer: false,
  timeout: 60_000,
  env: {
    PORT: String(port),
    DATABASE_URL: e2eDatabaseUrl(variant),
    DEMO_SEED: '1',
    APP_VARIANT: variant,
    // Every spec registers its own children and writes at test speed; the whole run comes from one
    // address. The limits themselves are tested in tests/server/security.
    REGISTRATIONS_PER_ADDRESS: '500',
    RATE_LIMIT_FACTOR: '50',
  },
});

const chromium = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  reporter: process.env.CI ? 'list' : 'line',
  timeout: 30_000,
  use: { locale: 'sv-SE', timezoneId: 'Europe/Stockholm', launchOptions: chromium },
  projects: [
    { name: 'barn', testIgnore: 'gruppstod/**', use: { baseURL: `http://127.0.0.1:${BARN_PORT}` } },
    {
      name: 'gruppstod',
      testMatch: 'gruppstod/**/*.spec.ts',
      use: { baseURL: `http://127.0.0.1:${GRUPPSTOD_PORT}` },
    },
  ],
  webServer: [server(BARN_PORT, 'barn'), server(GRUPPSTOD_PORT, 'gruppstod')],
});
