import { useEffect, useRef } from 'react';

/** Moves focus to a screen's heading when the screen opens, so keyboard and screen-reader users follow. */
export function useFocusOnMount<E extends HTMLElement>() {
  const ref = useRef<E>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}
