import { css } from '@linaria/core';
import { colors, desktop } from '../styles/theme.ts';

export const footer = css`
  margin-top: 3rem;
  border-top: 1px solid #dcd6e4;
  background: ${colors.surface};
`;

export const inner = css`
  max-width: 72rem;
  margin: 0 auto;
  padding: 1.5rem 1rem;
`;

export const columns = css`
  display: flex;
  flex-direction: column;
  margin: 0 0 1rem;
  padding: 0;
  list-style: none;
  ${desktop} {
    flex-direction: row;
  }
`;

/** One col-4 column of two links on desktop. */
export const column = css`
  ${desktop} {
    flex: 0 0 33.333%;
  }
`;

export const list = css`
  margin: 0;
  padding: 0;
  list-style: none;
  li {
    min-height: 44px;
    display: flex;
    align-items: center;
  }
`;

/** The footer's embedded-page buttons read as its links (one style for such buttons app-wide). */
export { linkButton } from '../styles/controls.ts';

export const bottom = css`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 1rem;
`;

export const copyright = css`
  margin: 0;
  color: ${colors.muted};
`;

export const logo = css`
  display: inline-flex;
  min-width: 44px;
  min-height: 44px;
  align-items: center;
  justify-content: center;
`;
