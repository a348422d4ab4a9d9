import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';

export const backdrop = css`
  position: fixed;
  inset: 0;
  z-index: 1000;
  display: flex;
  align-items: flex-end;
  justify-content: center;
  padding: 1rem;
  background: rgb(0 0 0 / 45%);
  @media (min-width: 768px) {
    align-items: center;
  }
`;

export const dialog = css`
  width: 100%;
  max-width: 28rem;
  padding: 1.5rem;
  border-radius: 16px;
  background: ${colors.surface};
  color: ${colors.text};
  box-shadow: 0 8px 32px rgb(0 0 0 / 25%);
  &:focus {
    outline: none;
  }
  h2 {
    margin: 0 0 0.5rem;
    font-size: 1.25rem;
    color: ${colors.brandDark};
  }
  p {
    margin: 0 0 1.25rem;
  }
  ol {
    margin: -0.75rem 0 1.25rem;
    padding-left: 1.5rem;
  }
`;

export const actions = css`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: 0.75rem;
`;
