import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type BrowserContext, type Page, type PlaywrightWorkerArgs } from './test.ts';
import { withNeutralExit } from './neutral-exit.ts';

/**
 * A browser profile folder of its own, started as often as a test likes: each `launch` is the
 * browser started again on the same folder (the phone's browser, or the installed app, opened
 * anew), with what the earlier runs stored on disk.
 */
export class BrowserProfile {
  private constructor(
    readonly folder: string,
    private readonly playwright: PlaywrightWorkerArgs['playwright'],
  ) {}

  static async create(playwright: PlaywrightWorkerArgs['playwright']): Promise<BrowserProfile> {
    return new BrowserProfile(await mkdtemp(path.join(tmpdir(), 'portal-profile-')), playwright);
  }

  /** The browser started on this folder with the project's settings, its quick exit led to the stand-in neutral page. */
  async launch(): Promise<{ context: BrowserContext; page: Page }> {
    const { baseURL, launchOptions, locale, timezoneId } = test.info().project.use;
    const context = await this.playwright.chromium.launchPersistentContext(this.folder, {
      ...launchOptions,
      ...(baseURL ? { baseURL } : {}),
      ...(locale ? { locale } : {}),
      ...(timezoneId ? { timezoneId } : {}),
    });
    await withNeutralExit(context);
    return { context, page: context.pages()[0] ?? (await context.newPage()) };
  }

  async remove(): Promise<void> {
    await rm(this.folder, { recursive: true, force: true });
  }
}
