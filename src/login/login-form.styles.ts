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

export const failure = css`
  margin: 0 0 1rem;
  padding: 0.5rem 0.75rem;
  border-left: 4px solid ${colors.danger};
  background: #fdeceb;
  color: ${colors.danger};
`;

export const note = css`
  margin: 0.5rem 0 0;
  color: ${colors.muted};
  font-size: 0.9375rem;
`;

export const notice = css`
  margin: 0;
  font-weight: 600;
`;

export const sharedDevice = css`
  display: flex;
  gap: 0.5rem;
  align-items: flex-start;
  margin: 0 0 1rem;
  input {
    width: 1.25rem;
    height: 1.25rem;
    margin: 0.125rem 0 0;
    flex: none;
  }
  label {
    font-weight: 600;
  }
  p {
    margin: 0.25rem 0 0;
    color: ${colors.muted};
    font-size: 0.9375rem;
  }
`;

export const forgotPassword = css`
  margin: -0.75rem 0 1rem;
`;

export const forgotPasswordPanel = css`
  padding: 0.5rem 0.75rem;
  border-left: 4px solid ${colors.brand};
  background: ${colors.background};
  p {
    margin: 0 0 0.5rem;
  }
  p:last-child {
    margin-bottom: 0;
  }
`;
