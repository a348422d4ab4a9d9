import { css } from '@linaria/core';

export const bootError = css`
  max-width: 32rem;
  margin: 4rem auto;
  padding: 0 1rem;
  text-align: center;
`;
