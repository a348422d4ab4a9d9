import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';

/** The weekday choice: seven buttons that wrap at 320 px rather than overflow. */
export const days = css`
  display: flex;
  flex-wrap: wrap;
  gap: 0.25rem;
  margin: 0.75rem 0;
  padding: 0;
  border: 0;
  button {
    min-width: 2.75rem;
    min-height: 44px;
    padding: 0 0.5rem;
    border: 1px solid ${colors.chat};
    border-radius: 6px;
    background: ${colors.surface};
    color: ${colors.chat};
    font: inherit;
    cursor: pointer;
  }
  button[aria-pressed='true'] {
    background: ${colors.chat};
    color: ${colors.surface};
    font-weight: 600;
  }
`;

export const summary = css`
  margin: 0.5rem 0;
  font-weight: 600;
`;

/** The chart is the table: one row per hour, its bar drawn in the wait's cell beside the words. */
export const table = css`
  width: 100%;
  border-collapse: collapse;
  caption {
    text-align: left;
    font-weight: 600;
    padding-bottom: 0.25rem;
  }
  th,
  td {
    padding: 0.25rem 0.5rem 0.25rem 0;
    border-bottom: 1px solid ${colors.background};
    text-align: left;
    vertical-align: middle;
  }
  th[scope='row'] {
    width: 4rem;
    font-weight: 400;
    white-space: nowrap;
  }
`;

export const cell = css`
  display: flex;
  align-items: center;
  gap: 0.5rem;
  min-width: 0;
  white-space: nowrap;
`;

/** The bar's length is the wait's share of the week's longest; the words say the wait itself. */
export const bar = css`
  flex: 0 1 auto;
  height: 0.75rem;
  min-width: 2px;
  border-radius: 3px;
  background: ${colors.chat};
`;

export const empty = css`
  color: ${colors.muted};
  font-style: italic;
`;

export const note = css`
  margin: 0.5rem 0;
  color: ${colors.muted};
`;
