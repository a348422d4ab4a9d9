import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';

export const emergency = css`
  margin: 0.75rem 0;
  font-weight: 600;

  a {
    color: ${colors.danger};
    text-decoration: underline;
    /* A phone number is tapped: at least 44 px of target. */
    display: inline-block;
    min-height: 44px;
    line-height: 44px;
  }
`;
