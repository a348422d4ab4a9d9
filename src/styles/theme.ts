import { css } from '@linaria/core';
import { BASE_GLOBAL_RULES } from '../../client-kit/theme/global-styles.ts';
import { SPINNER_RULES } from '../../client-kit/spinner/spinner.tsx';

export { colors, focusRing, fonts, sizes, space } from '../../client-kit/theme/tokens.ts';

export const DESKTOP_MIN_WIDTH = 768;
export const desktop = `@media (min-width: ${DESKTOP_MIN_WIDTH}px)`;

/**
 * The page-wide rules of the child app: the ones it shares with the staff console (and the shared
 * spinner's), and its own; in the first screen's one stylesheet.
 */
export const globalStyles = css`
  :global() {
    ${BASE_GLOBAL_RULES}
    ${SPINNER_RULES}
    html {
      scroll-padding-top: 120px;
    }
    /* A word longer than its line (large text, a long name or address) breaks instead of
       running off a narrow screen. */
    body {
      overflow-wrap: break-word;
    }
  }
`;
