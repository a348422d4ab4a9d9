import { css } from '@linaria/core';
import { colors } from './theme.ts';

/** A short note under a form field (a hint, a status), in the size of the field's error. */
export const hint = css`
  margin: 0;
  color: ${colors.muted};
  font-size: 0.9375rem;
`;

/** Good news in a hint's place, such as a free username: add it to `hint`, whose colour it replaces. */
export const goodNews = css`
  color: ${colors.success};
`;
