import { useEffect, useRef } from 'react';

/**
 * The native <dialog> as a modal while `open`: showModal() makes the rest of the page inert and
 * traps focus; on close, focus goes back to the element that opened it. Every modal of both apps
 * opens and closes through this hook; the returned ref goes on the <dialog>.
 */
export function useModalDialog(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const opener = document.activeElement as HTMLElement | null;
    if (!dialog.open) dialog.showModal();
    return () => {
      dialog.close();
      opener?.focus();
    };
  }, [open]);
  return ref;
}
