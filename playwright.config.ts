import { defineConfig } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_LAUNCH_OPTIONS } from './harness/chromium.ts';

/**
 * One real server per variant serves the built client, each with a fresh SQLite database seeded with
 * the demo data: the child app (Barn) on E2E_PORT, and the variants whose specs live in a folder of
 * their own (e2e/gruppstod/, e2e/assistent/, e2e/peers/, e2e/main/, e2e/chatt/) on the ports after it.
 */
const BARN_PORT = Number(process.env.E2E_PORT ?? 8190);
const VARIANT_FOLDERS = ['gruppstod', 'assistent', 'peers', 'main', 'chatt'] as const;
const portOf = (variant: (typeof VARIANT_FOLDERS)[number]) =>
  BARN_PORT + 1 + VARIANT_FOLDERS.indexOf(variant);
// Matched against the spec's absolute path: a glob like 'main/**' would match the checkout's own folder.
const inFolder = (folder: string) => new RegExp(`[\\/]e2e[\\/]${folder}[\\/].*\\.spec\\.ts$`);
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

/** Debian's Chromium (harness/chromium.ts), for the specs that start a browser of their own. */
export const chromiumLaunchOptions = CHROMIUM_LAUNCH_OPTIONS;

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  reporter: process.env.CI ? 'list' : 'line',
  timeout: 30_000,
  use: { locale: 'sv-SE', timezoneId: 'Europe/Stockholm', launchOptions: chromiumLaunchOptions },
  projects: [
    {
      name: 'barn',
      testIgnore: VARIANT_FOLDERS.map(inFolder),
      use: { baseURL: `http://127.0.0.1:${BARN_PORT}` },
    },
    ...VARIANT_FOLDERS.map((variant) => ({
      name: variant,
      testMatch: inFolder(variant),
      use: { baseURL: `http://127.0.0.1:${portOf(variant)}` },
    })),
  ],
  webServer: [
    server(BARN_PORT, 'barn'),
    ...VARIANT_FOLDERS.map((variant) => server(portOf(variant), variant)),
  ],
});
