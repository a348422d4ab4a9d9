import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';

export const frame = css`
  display: block;
  width: 100%;
  height: 70vh;
  border: 1px solid ${colors.border};
  border-radius: 6px;
`;

export const frameBar = css`
  margin-bottom: 0.75rem;
`;
