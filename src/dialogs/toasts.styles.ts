import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';

export const stack = css`
  position: fixed;
  inset: auto 1rem 1rem 1rem;
  width: auto;
  height: auto;
  margin: 0;
  padding: 0;
  border: 0;
  overflow: visible;
  background: transparent;
  z-index: 50;
  display: flex;
  flex-direction: column;
  align-items: flex-end;
  gap: 0.5rem;
  pointer-events: none;
`;

export const toast = css`
  display: flex;
  align-items: center;
  gap: 0.5rem;
  width: 100%;
  max-width: 24rem;
  padding: 0.5rem 0.5rem 0.5rem 1rem;
  border-left: 6px solid ${colors.brand};
  border-radius: 8px;
  background: ${colors.surface};
  color: ${colors.text};
  box-shadow: 0 4px 16px rgb(0 0 0 / 20%);
  pointer-events: auto;
`;

export const body = css`
  display: flex;
  flex-direction: column;
  flex: 1;
`;

export const kinds = {
  info: css`
    border-left-color: ${colors.brand};
  `,
  error: css`
    border-left-color: ${colors.danger};
  `,
  success: css`
    border-left-color: ${colors.success};
  `,
};
