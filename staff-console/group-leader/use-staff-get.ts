import { useCallback, useEffect, useRef, useState } from 'react';
import { useStaffApi } from '../api/staff-api.ts';

export interface Loaded<T> {
  data: T | null;
  /** A Swedish message when the last load failed; the last good data stays shown. */
  error: string | null;
  loading: boolean;
  reload(): void;
}

/**
 * GET a staff API path and keep the answer. Reloads coalesce: one runs at a time and a reload asked
 * for meanwhile runs once after it, so a burst of hub events costs at most two requests.
 */
export function useStaffGet<T>(path: string | null): Loaded<T> {
  const api = useStaffApi();
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(path !== null);
  const running = useRef(false);
  const again = useRef(false);
  const current = useRef(path);
  current.current = path;

  const run = useCallback(async () => {
    const asked = current.current;
    if (asked === null) return;
    if (running.current) {
      again.current = true;
      return;
    }
    running.current = true;
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
      running.current = false;
      setLoading(false);
      if (again.current) {
        again.current = false;
        void run();
      }
    }
  }, [api]);

  useEffect(() => {
    setData(null);
    setError(null);
    void run();
  }, [path, run]);

  const reload = useCallback(() => void run(), [run]);
  return { data, error, loading, reload };
}
