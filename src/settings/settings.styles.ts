import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';

export const form = css`
  display: flex;
  flex-direction: column;
  max-width: 28rem;
  button[type='submit'] {
    align-self: flex-start;
  }
`;

export const hint = css`
  margin: 0;
  color: ${colors.muted};
  font-size: 0.9375rem;
`;

export const failure = css`
  margin: 0 0 1rem;
  padding: 0.5rem 0.75rem;
  border-left: 4px solid ${colors.danger};
  background: #fdeceb;
  color: ${colors.danger};
`;

export const dangerButton = css`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-height: 44px;
  padding: 0.5rem 1.25rem;
  border: 2px solid ${colors.danger};
  border-radius: 999px;
  background: ${colors.surface};
  color: ${colors.danger};
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  &:hover {
    background: #fdeceb;
  }
`;

export const section = css`
  margin-bottom: 2rem;
`;
