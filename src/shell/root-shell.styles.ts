import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';

export const shell = css`
  display: flex;
  flex-direction: column;
  min-height: 100vh;
`;

export const content = css`
  flex: 1;
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
