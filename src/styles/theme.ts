import { css } from '@linaria/core';
import { baseGlobalStyles } from '../../client-kit/theme/global-styles.ts';

export { colors, focusRing, fonts, sizes, space } from '../../client-kit/theme/tokens.ts';

export const DESKTOP_MIN_WIDTH = 768;
export const desktop = `@media (min-width: ${DESKTOP_MIN_WIDTH}px)`;

const childAppGlobalStyles = css`
  :global() {
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

/** The page-wide rules of the child app: the ones it shares with the staff console, and its own. */
export const globalStyles = `${baseGlobalStyles} ${childAppGlobalStyles}`;
