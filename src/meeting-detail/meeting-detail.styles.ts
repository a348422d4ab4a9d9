import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';

export const title = css`
  margin: 0 0 0.25rem;
  font-size: 1.5rem;
  cursor: default;
  user-select: none;
`;

export const participants = css`
  list-style: none;
  padding: 0;
  margin: 0.5rem 0;
  li {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    min-height: 32px;
  }
`;

export const textarea = css`
  width: 100%;
  min-height: 6rem;
  padding: 0.5rem 0.75rem;
  border: 1px solid ${colors.border};
  border-radius: 6px;
  font: inherit;
  &[aria-invalid='true'] {
    border: 2px solid ${colors.danger};
  }
`;

export const debugBlock = css`
  margin-top: 1rem;
  padding: 0.75rem;
  border: 1px dashed ${colors.border};
  font-family: monospace;
  font-size: 0.8125rem;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
`;
