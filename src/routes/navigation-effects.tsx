import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocationProperty } from 'wouter/use-browser-location';
import { useCurrentUrl } from '../ui-kit/current-url.ts';
import { takePopped } from './history-pop.ts';
import { recordNavigation } from './navigation-history.ts';
import { resetFormInput } from '../ui-kit/unsaved-form-data.ts';

/**
 * Router behaviour of SPEC §2: the previous url is remembered for the back button, the scroll
 * position of a page is restored when the user comes back to it with the browser's back or forward,
 * a new page starts at the top, and a '#anchor' scrolls to its element.
 */
export function NavigationEffects() {
  const url = useCurrentUrl();
  // The hash too: the notifications button goes to '/mina-sidor#notiser' also from my pages.
  const hash = useLocationProperty(() => location.hash);
  const positions = useRef(new Map<string, number>());
  const lastUrl = useRef(url);

  useEffect(() => {
    history.scrollRestoration = 'manual';
    const remember = () => positions.current.set(lastUrl.current, window.scrollY);
    window.addEventListener('scroll', remember, { passive: true });
    return () => {
      window.removeEventListener('scroll', remember);
    };
  }, []);

  useLayoutEffect(() => {
    recordNavigation(url);
    resetFormInput();
    lastUrl.current = url;
    // Read now: the scroll event of a page that is shorter than the last one would overwrite it.
    const saved = takePopped() ? (positions.current.get(url) ?? 0) : 0;
    // After the routed page has rendered its content.
    const frame = requestAnimationFrame(() => {
      const id = decodeURIComponent(location.hash.slice(1));
      const anchor = id ? document.getElementById(id) : null;
      if (anchor) anchor.scrollIntoView();
      else window.scrollTo(0, saved);
    });
    return () => cancelAnimationFrame(frame);
  }, [url, hash]);

  return null;
}
