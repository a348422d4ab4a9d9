import { useEffect, useRef, useState } from 'react';
import { useStaffApi } from './staff-api.ts';
import { useCoalescedLoader } from './coalesced-loader.ts';

export interface Loaded<T> {
  data: T | null;
  /** A Swedish message when the last load failed; the last good data stays shown. */
  error: string | null;
  loading: boolean;
  reload(): void;
}

/**
 * GET a staff API path and keep the answer. Reloads coalesce (useCoalescedLoader), so a burst of
 * hub events costs at most two requests; an answer for a path no longer shown is dropped.
 */
export function useStaffGet<T>(path: string | null): Loaded<T> {
  const api = useStaffApi();
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(path !== null);
  const current = useRef(path);
  current.current = path;

  const reload = useCoalescedLoader(async () => {
    const asked = current.current;
    if (asked === null) return;
    setLoading(true);
    try {
      const result = await api.get<T>(asked);
      if (current.current === asked) {
        setData(result);
        setError(null);
      }
    } catch (e) {
      if (current.current === asked) setError(e instanceof Error ? e.message : String(e));
    } finally {
      setLoading(false);
    }
  });

  useEffect(() => {
    setData(null);
    setError(null);
    reload();
  }, [path, reload]);

  return { data, error, loading, reload };
}
