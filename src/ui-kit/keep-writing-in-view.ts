/**
 * When the on-screen keyboard opens (the visual viewport shrinks) over a field in a form, brings the
 * form's submit button into view and then the field: the browser by itself scrolls only the field
 * into view, and on a small phone the button under it ('Logga in', 'Skicka') stayed under the
 * keyboard. Returns the function that stops it.
 */
export function keepWritingInView(): () => void {
  const viewport = typeof window === 'undefined' ? undefined : window.visualViewport;
  if (!viewport) return () => undefined;
  let height = viewport.height;
  const onResize = () => {
    const shrank = viewport.height < height;
    height = viewport.height;
    const field = document.activeElement;
    if (!shrank || !(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return;
    const submit = field.form?.querySelector<HTMLElement>('button[type="submit"], button:not([type])');
    submit?.scrollIntoView({ block: 'nearest' });
    field.scrollIntoView({ block: 'nearest' });
  };
  viewport.addEventListener('resize', onResize);
  return () => viewport.removeEventListener('resize', onResize);
}
