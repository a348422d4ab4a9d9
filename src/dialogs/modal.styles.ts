import { css } from '@linaria/core';
import { colors, desktop, sizes } from '../styles/theme.ts';

export const dialog = css`
  width: calc(100% - 2rem);
  max-width: 32rem;
  /* The top 3.25rem of the screen stays free for 'Lämna sidan' (src/quick-exit). */
  top: 3.25rem;
  max-height: calc(100% - 4.25rem);
  padding: 0;
  border: 0;
  border-radius: ${sizes.cardRadius};
  color: ${colors.text};
  background: ${colors.surface};
  box-shadow: 0 8px 32px rgb(0 0 0 / 25%);
  &::backdrop {
    background: rgb(20 10 30 / 55%);
  }
`;

export const extraWide = css`
  max-width: 60rem;
`;

export const menu = css`
  margin: 0 0 0 auto;
  height: calc(100% - 3.25rem);
  max-height: none;
  border-radius: 0;
  ${desktop} {
    max-width: 24rem;
  }
`;

export const colours = {
  chat: css`
    border-top: 8px solid ${colors.chat};
  `,
  mail: css`
    border-top: 8px solid ${colors.mail};
  `,
  peers: css`
    border-top: 8px solid ${colors.peers};
  `,
};

export const content = css`
  padding: 1rem 1.25rem 1.25rem;
`;

export const header = css`
  display: flex;
  align-items: flex-start;
  gap: 0.5rem;
  margin-bottom: 0.5rem;
`;

export const close = css`
  margin-left: auto;
  margin-top: -0.25rem;
  margin-right: -0.5rem;
`;

export const titleLarge = css`
  margin: 0;
  font-size: 1.5rem;
  line-height: 1.25;
`;

export const titleSmall = css`
  margin: 0;
  font-size: 1.125rem;
  line-height: 1.25;
`;

/** A confirmation's title: the small title with the space below it that the modal's header gives. */
export const confirmTitle = css`
  margin: 0 0 0.5rem;
  font-size: 1.125rem;
  line-height: 1.25;
`;

export const actions = css`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: 0.75rem;
  margin-top: 1.25rem;
`;
