import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';

export const form = css`
  display: flex;
  flex-direction: column;
  max-width: 28rem;
  button[type='submit'] {
    align-self: flex-start;
  }
  select {
    min-height: 44px;
    padding: 0.5rem 0.75rem;
    border: 1px solid ${colors.border};
    border-radius: 6px;
    font: inherit;
    color: ${colors.text};
    background: ${colors.surface};
  }
  select[aria-invalid='true'] {
    border: 2px solid ${colors.danger};
  }
`;

export const hint = css`
  margin: 0;
  color: ${colors.muted};
  font-size: 0.9375rem;
`;

export const available = css`
  margin: 0;
  color: ${colors.success};
  font-size: 0.9375rem;
`;

export const choices = css`
  margin: 0 0 1rem;
  padding: 0;
  border: 0;
  legend {
    padding: 0;
    margin-bottom: 0.25rem;
    font-weight: 600;
  }
  label {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    min-height: 44px;
  }
  input {
    width: 1.25rem;
    height: 1.25rem;
    margin: 0;
    accent-color: ${colors.brand};
  }
`;

export const consentRow = css`
  margin-bottom: 1rem;
`;

export const consent = css`
  display: flex;
  align-items: flex-start;
  gap: 0.5rem;
  margin-bottom: 0.25rem;
  input {
    flex: none;
    width: 1.25rem;
    height: 1.25rem;
    margin: 0.125rem 0 0;
    accent-color: ${colors.brand};
  }
`;

export const failure = css`
  margin: 0 0 1rem;
  padding: 0.5rem 0.75rem;
  border-left: 4px solid ${colors.danger};
  background: #fdeceb;
  color: ${colors.danger};
`;
