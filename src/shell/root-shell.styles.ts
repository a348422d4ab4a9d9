import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';

export const shell = css`
  display: flex;
  flex-direction: column;
  min-height: 100vh;
`;

// The footer starts below the first screen on every page: a page that fills in as its data arrives
// (a meeting's parts) would otherwise push a footer in view down, again and again (Lighthouse's CLS,
// 0.126 on a meeting page). Reaching it takes a scroll, as on a page longer than the screen.
export const content = css`
  flex: 1;
  min-height: 100vh;
`;

export const skipLink = css`
  position: absolute;
  top: -100px;
  left: 0.5rem;
  z-index: 100;
  padding: 0.5rem 1rem;
  background: ${colors.brand};
  color: #fff;
  &:focus {
    top: 0.5rem;
  }
`;
