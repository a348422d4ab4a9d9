import { createContext, useContext } from 'react';
import type { RuntimeConfig } from '../../contract/config.ts';

/** `GET /config.json`, read once at start: URLs, the variant header value and the property ids. */
export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  const res = await fetch('/config.json', { cache: 'no-cache' });
  if (!res.ok) throw new Error(`config.json answered ${res.status}`);
  return (await res.json()) as RuntimeConfig;
}

export const RuntimeConfigContext = createContext<RuntimeConfig | null>(null);

export function useRuntimeConfig(): RuntimeConfig {
  const config = useContext(RuntimeConfigContext);
  if (!config) throw new Error('useRuntimeConfig outside the staff console');
  return config;
}
