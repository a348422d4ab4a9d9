import type { RuntimeConfig } from '../../contract/config.ts';

/** GET /config.json: the only network call the UI makes itself; everything else goes through the worker. */
export async function fetchConfig(): Promise<RuntimeConfig> {
  const response = await fetch('/config.json', { cache: 'no-cache' });
  if (!response.ok) throw new Error(`GET /config.json answered ${response.status}`);
  return (await response.json()) as RuntimeConfig;
}
