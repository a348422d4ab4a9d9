import { signal } from '@preact/signals-react';

/** The app-internal url before the current one; undefined on the first page of this visit. */
export const previousUrl = signal<string | undefined>(undefined);
let currentUrl: string | undefined;

export function recordNavigation(url: string) {
  if (url === currentUrl) return;
  previousUrl.value = currentUrl;
  currentUrl = url;
}

/**
 * SPEC §2 back logic: to '/' when there is no previous url or it was '/', otherwise browser history.
 * A post (nytt-inlagg / inlagg; in Peers also mail's nytt-meddelande / meddelande) always goes back
 * to my pages.
 */
export function goBack(navigate: (to: string) => void, path: string) {
  if (/(^|\/)(nytt-inlagg|inlagg|nytt-meddelande|meddelande)(\/|$)/.test(path)) {
    navigate('/mina-sidor');
    return;
  }
  const previous = previousUrl.value;
  if (previous === undefined || previous === '/') navigate('/');
  else history.back();
}
