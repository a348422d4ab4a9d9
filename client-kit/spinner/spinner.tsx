import { spinner, spinnerPage, spinnerWheel } from './spinner.styles.ts';

/**
 * A busy indicator whose text is also read by screen readers: the child app's and the staff
 * console's. `fullPage` fills the viewport (a page that is still loading).
 */
export function Spinner({ label, fullPage = false }: { label: string; fullPage?: boolean }) {
  return (
    <div className={fullPage ? `${spinner} ${spinnerPage}` : spinner} role="status" aria-busy="true">
      <span className={spinnerWheel} aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
