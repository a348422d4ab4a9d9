import { css } from '@linaria/core';
import { colors, desktop } from '../styles/theme.ts';

export const cards = css`
  display: grid;
  gap: 1rem;
  margin: 1rem 0;
  ${desktop} {
    grid-template-columns: 1fr 1fr;
  }
`;

export const card = css`
  /* A grid item may be narrower than its longest word (large text): the word breaks instead. */
  min-width: 0;
  display: flex;
  flex-direction: column;
  align-items: flex-start;
  gap: 0.5rem;
  padding: 1rem;
  border-radius: 12px;
  background: ${colors.surface};
  box-shadow: 0 1px 4px rgb(0 0 0 / 12%);
  h2 {
    margin: 0;
    font-size: 1.25rem;
  }
  p {
    margin: 0;
  }
`;

export const buttons = css`
  display: flex;
  flex-wrap: wrap;
  gap: 0.75rem;
  margin: 1rem 0;
`;

export const error = css`
  color: ${colors.danger};
`;
