import { useEffect, useState } from 'react';
import { DESKTOP_MIN_WIDTH } from '../styles/theme.ts';

/** SPEC §9: desktop from 768 px. */
export function useDesktop(): boolean {
  const query = `(min-width: ${DESKTOP_MIN_WIDTH}px)`;
  const [desktop, setDesktop] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const onChange = () => setDesktop(list.matches);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, [query]);
  return desktop;
}
