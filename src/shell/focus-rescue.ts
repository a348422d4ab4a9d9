const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Keeps the keyboard's place when the focused element leaves the page: a button that gives way to
 * another (the header's 'Logga in' to 'Logga ut' after a login, the chat's 'Lämna kön' to 'Avsluta'
 * and 'Stäng') would otherwise leave the focus on the body, and the next Tab would start over from
 * the top of the page or fall behind an open dialog. The focus moves to the first control of the
 * innermost open dialog, or else to the main content (which is focusable for the skip link).
 * Returns the function that stops watching.
 */
export function rescueLostFocus(doc: Document = document): () => void {
  let focused: Element | null = doc.activeElement;
  const onFocusIn = (event: FocusEvent) => {
    focused = event.target as Element;
  };
  const observer = new MutationObserver(() => {
    const lost = doc.activeElement === null || doc.activeElement === doc.body;
    if (!lost || !focused || focused === doc.body || focused.isConnected) return;
    focused = null;
    const dialogs = doc.querySelectorAll('dialog[open]');
    const dialog = dialogs[dialogs.length - 1];
    const target = dialog
      ? dialog.querySelector<HTMLElement>(FOCUSABLE)
      : doc.querySelector<HTMLElement>('main[tabindex]');
    // Without scrolling: a new page starts at its top (SPEC §2), and a dialog stays where it is.
    target?.focus({ preventScroll: true });
  });
  doc.addEventListener('focusin', onFocusIn);
  observer.observe(doc.body, { childList: true, subtree: true });
  return () => {
    doc.removeEventListener('focusin', onFocusIn);
    observer.disconnect();
  };
}
