import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';

export const footer = css`
  margin: 0.75rem 0 0;
  color: ${colors.muted};
  text-align: center;
`;

export const toolbar = css`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem;
`;

/** The star and the trash sit at the far end of the toolbar. */
export const toolbarEnd = css`
  display: flex;
  gap: 0.25rem;
  margin-left: auto;
`;

export const favouriteOn = css`
  color: #8a5a00;
`;

/**
 * The history scrolls inside the modal, not with it, so a long one is windowed (message-list.tsx):
 * the modal's chrome (title, toolbar, footer) stays in view at any height.
 */
export const historyList = css`
  flex: none;
  max-height: max(12rem, calc(100dvh - 17rem));
  padding: 0.5rem 0.25rem;
`;
