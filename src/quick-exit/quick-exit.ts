import { QUICK_EXIT_ATTRIBUTE } from '../../contract/first-screen.ts';

/**
 * Quick exit, for a child who must hide the app at once (the person they write about may be standing
 * behind them): the page is blanked and replaced by a neutral public site, so Back does not return
 * to it. The app's own earlier history entries would still load the app, so the tab remembers the
 * exit (sessionStorage, this tab only) and an app reached again by Back or Forward leaves at once,
 * before any of its pages is drawn (at most the first HTML's neutral shell shows for a moment, as
 * the page's title already did: both come with the HTML, before any script can run; the site
 * forbids inline scripts). A new visit (typing the address, a link, a reload) is not a Back: the
 * app then opens as usual and forgets the exit.
 *
 * Before the app's script has started (a slow line), 'Lämna sidan' is a plain link to the same
 * page: it leaves at once, but as a link does, so Back would come back (see the decisions page).
 */
const EXITED_KEY = 'quick-exit';
/**
 * How long the blanked page waits for the at-rest key to be shredded before it goes (the shred takes
 * milliseconds; the cap is for a device that stalls): leaving the page would end its shredder.
 */
export const SHRED_WAIT_MS = 1_000;

/** This page is leaving already (a quick exit under way). */
let leaving = false;
/** Shift pressed this many times within SHIFT_WINDOW_MS, with no other key between, leaves too. */
export const SHIFT_PRESSES = 3;
export const SHIFT_WINDOW_MS = 1000;

/**
 * Leaves now: nothing of the page stays on screen while the neutral site loads (or fails to,
 * offline). `before` is what must be done before the page goes (the key's shred); the page is blank
 * meanwhile.
 */
export function leavePage(url: string, before?: Promise<unknown>): void {
  // Once: the other tabs' broadcast reaches this tab too, and a second navigation would cut the
  // first short (and go before the key is shredded).
  if (leaving) return;
  leaving = true;
  try {
    sessionStorage.setItem(EXITED_KEY, url);
  } catch {
    // Storage refused (private mode quotas): leaving matters more than remembering.
  }
  blank();
  if (!before) location.replace(url);
  else void before.finally(() => location.replace(url));
}

function blank(): void {
  document.title = '';
  document.body.replaceChildren();
}

/**
 * Called first at boot and when a page comes back from the back-forward cache: true when this load
 * is a Back or Forward into the app after a quick exit, in which case it is already leaving again.
 */
export function leaveAgainIfReturned(restoredFromCache = false): boolean {
  let exitedTo: string | null = null;
  try {
    exitedTo = sessionStorage.getItem(EXITED_KEY);
  } catch {
    return false;
  }
  if (!exitedTo) return false;
  const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  if (restoredFromCache || navigation?.type === 'back_forward') {
    blank();
    location.replace(exitedTo);
    return true;
  }
  sessionStorage.removeItem(EXITED_KEY);
  return false;
}

/**
 * Counts Shift presses (as GOV.UK's "Exit this page"): three within a second, with no other key
 * between (a capital letter is Shift and a letter, and starts the count again), call `leave`.
 */
export function watchTripleShift(target: Window, leave: () => void, now: () => number = Date.now) {
  let presses: number[] = [];
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Shift') {
      presses = [];
      return;
    }
    if (event.repeat) return;
    const at = now();
    presses = [...presses.filter((t) => at - t < SHIFT_WINDOW_MS), at];
    if (presses.length >= SHIFT_PRESSES) {
      presses = [];
      leave();
    }
  };
  target.addEventListener('keydown', onKeyDown, { capture: true });
  return () => target.removeEventListener('keydown', onKeyDown, { capture: true });
}

/**
 * Where the quick exit link of a page's first HTML leads: the server (or the service worker) filled
 * the configured address in. The entry reads it before React touches the page, so that the first
 * render gives the link the same address (a hydration that matches).
 */
export function quickExitUrlIn(root: ParentNode): string | null {
  return root.querySelector(`a[${QUICK_EXIT_ATTRIBUTE}]`)?.getAttribute('href') ?? null;
}
