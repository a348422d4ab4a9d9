import { ANTI_FORGERY_PATH, type AntiForgeryResponse } from '../../contract/anti-forgery.ts';
import { VARIANT_HEADER, type AppVariant } from '../../contract/variant.ts';

/** The anti-forgery value the HTTP helper copies into the header of its writes (SPEC §7). */
export interface AntiForgery {
  /** The value, fetched once when not yet known; undefined when it cannot be had now (offline). */
  token(): Promise<string | undefined>;
  /** Asks the server again: its cookie was cleared or replaced since (a 403 `anti_forgery`). */
  renew(): Promise<void>;
}

/**
 * The worker's copy of the browser's anti-forgery cookie. A worker can read cookies only where the
 * Cookie Store API exists (Chromium), so it asks the server, which answers a value its answer sets
 * in the cookie at `Path=/` (never one a planted cookie of a longer path shows only to it): the
 * same in every browser. The server asks it only of writes no bearer token proves.
 */
export class AntiForgeryToken implements AntiForgery {
  private value: string | undefined;
  private loading: Promise<void> | null = null;

  constructor(private readonly deps: { apiUrl: string; variant: AppVariant; fetch: typeof fetch }) {}

  async token(): Promise<string | undefined> {
    if (this.value === undefined) await this.renew().catch(() => undefined);
    return this.value;
  }

  renew(): Promise<void> {
    this.loading ??= this.load().finally(() => (this.loading = null));
    return this.loading;
  }

  private async load(): Promise<void> {
    const response = await this.deps.fetch(`${this.deps.apiUrl}${ANTI_FORGERY_PATH}`, {
      headers: { [VARIANT_HEADER]: this.deps.variant },
      cache: 'no-store',
    });
    if (!response.ok) throw new Error(`anti-forgery: ${response.status}`);
    this.value = ((await response.json()) as AntiForgeryResponse).token;
  }
}
