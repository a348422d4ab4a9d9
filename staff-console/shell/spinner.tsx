import { spinner, spinnerWheel } from '../styles.ts';

/** A busy indicator whose text is also read by screen readers. */
export function Spinner({ label }: { label: string }) {
  return (
    <div className={spinner} role="status" aria-busy="true">
      <span className={spinnerWheel} aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
