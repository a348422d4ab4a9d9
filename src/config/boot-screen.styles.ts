import { css } from '@linaria/core';
import { BODY_RULES, colors } from '../../client-kit/theme/tokens.ts';
import { BOOT_CLASSES } from './boot-screen-markup.ts';

// The look of client-kit's full-page Spinner, kept apart so that the loading screen's styles come
// with the entry's own (single) stylesheet instead of a second, render-blocking one. Global class
// names: index.html draws the same markup before any script (boot-screen-markup.ts).
// The body's rules, in this stylesheet too: the app's own (with them) arrives after the first paint.
export const bootStyles = css`
  :global() {
    body {
      ${BODY_RULES}
    }

    .${BOOT_CLASSES.screen} {
      display: flex;
      align-items: center;
      justify-content: center;
      gap: 0.75rem;
      padding: 2rem 1rem;
      min-height: 100vh;
      color: ${colors.text};
    }

    .${BOOT_CLASSES.wheel} {
      width: 1.5rem;
      height: 1.5rem;
      border: 3px solid ${colors.background};
      border-top-color: ${colors.brand};
      border-radius: 50%;
      animation: boot-spin 0.8s linear infinite;
    }

    @keyframes boot-spin {
      to {
        transform: rotate(360deg);
      }
    }

    @media (prefers-reduced-motion: reduce) {
      .${BOOT_CLASSES.wheel} {
        animation: none;
      }
    }
  }
`;
