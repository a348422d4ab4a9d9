import { colors } from '../theme/tokens.ts';

/**
 * The spinner's class names: global (not hashed), written by each app into its own global styles
 * (SPINNER_RULES), as with the page-wide rules: so the spinner on a first screen comes with that
 * page's one stylesheet.
 */
const CLASSES = { spinner: 'ck-spinner', page: 'ck-spinner-page', wheel: 'ck-spinner-wheel' } as const;

/** The spinner's rules, for an app's global styles (inside `:global()`). */
export const SPINNER_RULES = `
  .${CLASSES.spinner} {
    display: flex;
    align-items: center;
    justify-content: center;
    gap: 0.75rem;
    padding: 2rem 1rem;
    color: ${colors.text};
  }
  .${CLASSES.page} {
    min-height: 100vh;
  }
  .${CLASSES.wheel} {
    width: 1.5rem;
    height: 1.5rem;
    border: 3px solid ${colors.background};
    border-top-color: ${colors.brand};
    border-radius: 50%;
    animation: ck-spin 0.8s linear infinite;
  }
  @keyframes ck-spin {
    to {
      transform: rotate(360deg);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .${CLASSES.wheel} {
      animation: none;
    }
  }
`;

/**
 * A busy indicator whose text is also read by screen readers: the child app's and the staff
 * console's. `fullPage` fills the viewport (a page that is still loading).
 */
export function Spinner({ label, fullPage = false }: { label: string; fullPage?: boolean }) {
  return (
    <div
      className={fullPage ? `${CLASSES.spinner} ${CLASSES.page}` : CLASSES.spinner}
      role="status"
      aria-busy="true"
    >
      <span className={CLASSES.wheel} aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
