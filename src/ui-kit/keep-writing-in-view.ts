/**
 * When the on-screen keyboard opens (the visual viewport shrinks) over a field in a form, brings the
 * form's submit button into view and then the field: the browser by itself scrolls only the field
 * into view, and on a small phone the button under it ('Logga in', 'Skicka') stayed under the
 * keyboard. Returns the function that stops it.
 */
export function keepWritingInView(): () => void {
  const viewport = typeof window === 'undefined' ? undefined : window.visualViewport;
  if (!viewport) return () => undefined;
  let { height, width } = viewport;
  const onResize = () => {
    // The keyboard takes height alone and never zooms; a zoom or a turned phone is no keyboard.
    const keyboard = viewport.height < height && viewport.width === width && viewport.scale <= 1.01;
    ({ height, width } = viewport);
    const field = document.activeElement;
    if (!keyboard || !isTextField(field)) return;
    const submit = field.form?.querySelector<HTMLElement>(
      'button[type="submit"], button:not([type]), input[type="submit"]',
    );
    submit?.scrollIntoView({ block: 'nearest' });
    field.scrollIntoView({ block: 'nearest' });
  };
  viewport.addEventListener('resize', onResize);
  return () => viewport.removeEventListener('resize', onResize);
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
function isTextField(el: Element | null): el is HTMLInputElement | HTMLTextAreaElement {
  return el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && !NOT_TEXT.has(el.type));
}
