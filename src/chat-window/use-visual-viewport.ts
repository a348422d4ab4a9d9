import { useLayoutEffect, type RefObject } from 'react';
import { LOW_WINDOW_ATTRIBUTE, LOW_WINDOW_PX } from './low-window.ts';

/** The custom properties the chat window's height and top follow (chat-window.styles.ts). */
export const VISUAL_VIEWPORT_HEIGHT = '--chat-window-height';
export const VISUAL_VIEWPORT_TOP = '--chat-window-top';

/**
 * Keeps `element` (the full-screen chat window) the size of the visual viewport: the part of the
 * screen the on-screen keyboard leaves. A browser that shrinks the layout viewport for the keyboard
 * (Chromium with `interactive-widget=resizes-content`, index.html) needs none of this; one that only
 * shrinks the visual viewport (Safari) would otherwise leave the text box under the keyboard.
 */
export function useVisualViewport(element: RefObject<HTMLElement | null>, active: boolean) {
  useLayoutEffect(() => {
    const el = element.current;
    const viewport = typeof window === 'undefined' ? undefined : window.visualViewport;
    if (!el || !active || !viewport) return;
    const follow = () => {
      // Zoomed in (a pinch, or a reader's zoom), the visual viewport is a part of the page that
      // moves with the fingers, not what the keyboard left: the window stays the screen's.
      if (viewport.scale > 1.01) {
        clear();
        return;
      }
      el.style.setProperty(VISUAL_VIEWPORT_HEIGHT, `${viewport.height}px`);
      el.style.setProperty(VISUAL_VIEWPORT_TOP, `${viewport.offsetTop}px`);
      el.toggleAttribute(LOW_WINDOW_ATTRIBUTE, viewport.height < LOW_WINDOW_PX);
    };
    const clear = () => {
      el.style.removeProperty(VISUAL_VIEWPORT_HEIGHT);
      el.style.removeProperty(VISUAL_VIEWPORT_TOP);
      el.removeAttribute(LOW_WINDOW_ATTRIBUTE);
    };
    follow();
    viewport.addEventListener('resize', follow);
    viewport.addEventListener('scroll', follow);
    return () => {
      viewport.removeEventListener('resize', follow);
      viewport.removeEventListener('scroll', follow);
      clear();
    };
  }, [element, active]);
}
