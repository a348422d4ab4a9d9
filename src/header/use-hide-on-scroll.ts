import { useEffect, useState } from 'react';
import { DESKTOP_MIN_WIDTH } from '../styles/theme.ts';
import { isTextField } from '../ui-kit/keep-writing-in-view.ts';

/** SPEC §2, §9: the header hides once scrolled down past 64 px (104 px on desktop). */
export const HIDE_AFTER_PX = { mobile: 64, desktop: 104 } as const;

/**
 * true while the header should be hidden: scrolling down past the threshold; false on scrolling up,
 * except while the child is writing (a text field has focus). On a phone the keyboard then leaves
 * half the screen, and bringing the field and its button into view scrolls up: a header sliding back
 * would cover the field (decisions.md, "The header while writing").
 */
export function useHideOnScroll(): boolean {
  const [hidden, setHidden] = useState(false);

  useEffect(() => {
    const desktop = window.matchMedia(`(min-width: ${DESKTOP_MIN_WIDTH}px)`);
    let lastY = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      const threshold = desktop.matches ? HIDE_AFTER_PX.desktop : HIDE_AFTER_PX.mobile;
      if (y > lastY && y > threshold) setHidden(true);
      else if (y <= threshold || (y < lastY && !isTextField(document.activeElement))) setHidden(false);
      lastY = y;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  return hidden;
}
