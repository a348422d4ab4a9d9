import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';

export const expired = css`
  padding: 0.75rem 1rem;
  border-left: 4px solid ${colors.brand};
  background: ${colors.surface};
`;
