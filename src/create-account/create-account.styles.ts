import { css } from '@linaria/core';
import { goodNews, hint } from '../styles/form-notes.ts';
import { colors } from '../styles/theme.ts';

export { form } from '../login/login-form.styles.ts';
export { hint } from '../styles/form-notes.ts';

export const available = `${hint} ${goodNews}`;

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
