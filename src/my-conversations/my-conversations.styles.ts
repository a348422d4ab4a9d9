import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';
export { item, itemLink, list, section } from '../styles/lists.ts';

export const historyButton = css`
  flex: 1 1 12rem;
  min-height: 44px;
  padding: 0;
  border: 0;
  background: none;
  color: ${colors.brand};
  font: inherit;
  font-weight: 600;
  text-align: left;
  text-decoration: underline;
  cursor: pointer;
`;

export const date = css`
  color: ${colors.muted};
  font-size: 0.9375rem;
`;

export const badge = css`
  padding: 0.125rem 0.5rem;
  border-radius: 999px;
  background: ${colors.brand};
  color: #fff;
  font-size: 0.875rem;
  font-weight: 600;
`;

export const pending = css`
  color: ${colors.muted};
  font-style: italic;
`;

export const star = css`
  display: inline-flex;
  align-items: center;
  gap: 0.25rem;
  color: #8a5a00;
  svg {
    width: 20px;
    height: 20px;
  }
`;
