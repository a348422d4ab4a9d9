/**
 * When the on-screen keyboard opens (the visual viewport shrinks) over a field in a form, brings the
 * form's submit button into view and then the field: the browser by itself scrolls only the field
 * into view, and on a small phone the button under it ('Logga in', 'Skicka') stayed under the
 * keyboard. While the keyboard stays open the two are kept in view as the page changes size: what
 * loads above the form (a meeting's tasks, a thread's messages) would otherwise push them under the
 * keyboard while the child writes. `topInset` is what stays over the top of the page while one
 * writes (the quick-exit strip): the header slides away and stays away while a field has focus, so
 * the room html's scroll-padding-top keeps for it is not kept (with it, a field and its button that
 * fit in the half screen the keyboard leaves did not). Returns the function that stops it.
 */
export function keepWritingInView({ topInset = '0px' }: { topInset?: string } = {}): () => void {
  const viewport = typeof window === 'undefined' ? undefined : window.visualViewport;
  if (!viewport) return () => undefined;
  let { height, width } = viewport;
  let keyboardOpen = false;
  const bringIntoView = () => {
    const field = document.activeElement;
    if (!keyboardOpen || !isTextField(field)) return;
    const submit = field.form?.querySelector<HTMLElement>(
      'button[type="submit"], button:not([type]), input[type="submit"]',
    );
    const root = document.documentElement;
    const padding = root.style.scrollPaddingTop;
    root.style.scrollPaddingTop = topInset;
    try {
      submit?.scrollIntoView({ block: 'nearest' });
      field.scrollIntoView({ block: 'nearest' });
    } finally {
      root.style.scrollPaddingTop = padding;
    }
  };
  const onResize = () => {
    // The keyboard takes height alone and never zooms; a zoom or a turned phone is no keyboard.
    const sameWidth = viewport.width === width && viewport.scale <= 1.01;
    if (viewport.height < height && sameWidth) keyboardOpen = true;
    else if (viewport.height > height || !sameWidth) keyboardOpen = false;
    ({ height, width } = viewport);
    if (keyboardOpen) bringIntoView();
  };
  viewport.addEventListener('resize', onResize);
  const pageResized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(bringIntoView);
  pageResized?.observe(document.body);
  return () => {
    viewport.removeEventListener('resize', onResize);
    pageResized?.disconnect();
  };
}

const NOT_TEXT = new Set([
  'checkbox',
  'radio',
  'range',
  'color',
  'file',
  'button',
  'submit',
  'reset',
  'image',
]);

/** A field the keyboard opens for: a text box, or an input of a kind one types into. */
export function isTextField(el: Element | null): el is HTMLInputElement | HTMLTextAreaElement {
  return el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && !NOT_TEXT.has(el.type));
}
