import { css } from '@linaria/core';

export const section = css`
  margin-top: 1.5rem;
  h3 {
    margin: 0 0 0.75rem;
  }
`;

export const list = css`
  list-style: none;
  padding: 0;
  margin: 0;
  h4 {
    margin: 0 0 0.25rem;
    font-size: 1.125rem;
  }
`;
