import { css } from '@linaria/core';
import { TEXT_BOX } from '../styles/controls.ts';
import { colors } from '../styles/theme.ts';

/** The free text under 'Hur kändes chatten?': the field across the window, its buttons under it. */
export const more = css`
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  padding: 0.5rem 1rem 1rem;
  label {
    font-weight: 600;
  }
  textarea {
    ${TEXT_BOX}
    min-height: 4.5rem;
    resize: vertical;
  }
`;

export const left = css`
  margin: 0;
  color: ${colors.muted};
  font-size: 0.9375rem;
`;

export const buttons = css`
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
`;

export const thanks = css`
  margin: 0;
  padding: 0.5rem 1rem 1rem;
  font-weight: 600;
`;
