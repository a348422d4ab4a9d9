import { css } from '@linaria/core';
import { colors } from '../theme/tokens.ts';

export const spinner = css`
  display: flex;
  align-items: center;
  justify-content: center;
  gap: 0.75rem;
  padding: 2rem 1rem;
  color: ${colors.text};
`;

export const spinnerPage = css`
  min-height: 100vh;
`;

export const spinnerWheel = css`
  width: 1.5rem;
  height: 1.5rem;
  border: 3px solid ${colors.background};
  border-top-color: ${colors.brand};
  border-radius: 50%;
  animation: spin 0.8s linear infinite;
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    animation: none;
  }
`;
