import { useEffect, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { outcomeOf, type LoadOutcome, type LoadResult } from '../../worker/client/result.ts';
import { useDb } from './data-context.tsx';

/**
 * Counts the times the line came back while the component is shown: the browser's `online` event,
 * and the worker's hub connection reaching 'Connected' again after it was something else.
 */
function useComebacks(): number {
  const db = useDb();
  const hubState = useLiveQuery(() => db.runtime.get('current'), [db])?.hubState;
  const [count, setCount] = useState(0);
  const previous = useRef(hubState);

  useEffect(() => {
    const online = () => setCount((n) => n + 1);
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, []);

  useEffect(() => {
    const before = previous.current;
    previous.current = hubState;
    if (hubState === 'Connected' && before !== undefined && before !== 'Connected') setCount((n) => n + 1);
  }, [hubState]);
  return count;
}

/**
 * Runs a list's load when shown (and when `key` changes), and again when the network or the hub
 * comes back, so 'offline' (the notice over cached rows) goes once a later load succeeds. Its
 * outcome, null while the first load runs; a reload keeps the last outcome until it answers.
 */
export function useLoadWhenBack(load: () => Promise<LoadResult>, key: unknown = null): LoadOutcome | null {
  const [outcome, setOutcome] = useState<LoadOutcome | null>(null);
  const comebacks = useComebacks();
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => setOutcome(null), [key]);
  useEffect(() => {
    let current = true;
    loadRef
      .current()
      .then((r) => current && setOutcome(outcomeOf(r)))
      .catch(() => current && setOutcome('failed'));
    return () => {
      current = false;
    };
  }, [key, comebacks]);
  return outcome;
}
