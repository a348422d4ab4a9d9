import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';

export const footer = css`
  margin: 0.75rem 0 0;
  color: ${colors.muted};
  text-align: center;
`;
