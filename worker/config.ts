import type { RuntimeConfig } from '../contract/config.ts';

/** `GET /config.json` (ARCHITECTURE.md Configuration), read once when the worker starts. */
export async function loadRuntimeConfig(
  origin: string,
  fetchFn: typeof fetch = fetch,
): Promise<RuntimeConfig> {
  const response = await fetchFn(new URL('/config.json', origin), { cache: 'no-cache' });
  if (!response.ok) throw new Error(`config.json: ${response.status}`);
  return (await response.json()) as RuntimeConfig;
}
