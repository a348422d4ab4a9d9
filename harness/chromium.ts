// Debian's Chromium as every browser test and benchmark starts it: browsers cannot be downloaded
// here, and what the browser does on its own (sync, updates, QUIC) stays out of the measurements.
import { chromium, type LaunchOptions } from '@playwright/test';

export const CHROMIUM_LAUNCH_OPTIONS = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
} satisfies LaunchOptions;

export const launchChromium = () => chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
