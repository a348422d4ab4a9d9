import { signal } from '@preact/signals-react';
import { TOAST_AUTOHIDE_MS } from '../../contract/timings.ts';

export interface Toast {
  id: number;
  text: string;
  title?: string;
  kind: 'info' | 'error' | 'success';
}

export const toasts = signal<readonly Toast[]>([]);
let nextId = 1;

export function dismissToast(id: number) {
  toasts.value = toasts.value.filter((t) => t.id !== id);
}

export function showToast(text: string, options: { title?: string; kind?: Toast['kind'] } = {}) {
  const toast: Toast = { id: nextId++, text, title: options.title, kind: options.kind ?? 'info' };
  toasts.value = [...toasts.value, toast];
  setTimeout(() => dismissToast(toast.id), TOAST_AUTOHIDE_MS);
  return toast.id;
}
