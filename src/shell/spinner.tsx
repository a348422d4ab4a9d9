import { spinner, spinnerPage, spinnerWheel } from './spinner.styles.ts';

/** A busy indicator whose text is also read by screen readers. */
export function Spinner({ label, fullPage = false }: { label: string; fullPage?: boolean }) {
  return (
    <div className={fullPage ? `${spinner} ${spinnerPage}` : spinner} role="status" aria-busy="true">
      <span className={spinnerWheel} aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
