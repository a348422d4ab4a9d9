/**
 * SPEC §4 App updates: a new version reloads at once unless the user has typed into a form. Any
 * input since the last navigation counts; a navigation starts clean again.
 */
let typed = false;

export function watchFormInput(): () => void {
  const onInput = () => {
    typed = true;
  };
  document.addEventListener('input', onInput, true);
  return () => document.removeEventListener('input', onInput, true);
}

export function resetFormInput() {
  typed = false;
}

export function hasUnsavedFormData(): boolean {
  return typed;
}
