import { css } from '@linaria/core';
import { chatList as sharedChatList, colors, wide } from '../ui/styles.ts';

export { bubble, meta } from '../ui/styles.ts';

export const screen = css`
  display: flex;
  flex-direction: column;
  gap: 1rem;
  max-width: 1100px;
  margin: 0 auto;
  & h1,
  & h2,
  & h3 {
    margin: 0;
    line-height: 1.25;
    overflow-wrap: anywhere;
  }
  & h1 {
    font-size: 1.5rem;
  }
  & h2 {
    font-size: 1.25rem;
  }
  & h3 {
    font-size: 1.1rem;
  }
  & h1:focus {
    outline: none;
  }
`;

export const columns = css`
  display: grid;
  gap: 1rem;
  grid-template-columns: minmax(0, 1fr);
  ${wide} {
    grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);
    align-items: start;
  }
`;

export const stack = css`
  display: flex;
  flex-direction: column;
  gap: 1rem;
  min-width: 0;
`;

export const row = css`
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  align-items: center;
`;

export const plainList = css`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
`;

export const listItem = css`
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  align-items: center;
  justify-content: space-between;
  padding: 0.75rem;
  border: 1px solid #d9d4e2;
  border-radius: 8px;
  background: ${colors.surface};
  min-width: 0;
  & > div {
    min-width: 0;
    overflow-wrap: anywhere;
  }
`;

export const badge = css`
  display: inline-block;
  padding: 0.125rem 0.5rem;
  border-radius: 999px;
  font-size: 0.875rem;
  font-weight: 600;
  border: 1px solid currentColor;
`;

export const badgeKinds = {
  InProgress: css`
    color: ${colors.success};
  `,
  NotStarted: css`
    color: ${colors.brand};
  `,
  Completed: css`
    color: ${colors.muted};
  `,
  Cancelled: css`
    color: ${colors.danger};
  `,
};

const chatListFrame = css`
  max-height: 24rem;
  border: 1px solid #d9d4e2;
`;

export const chatList = `${sharedChatList} ${chatListFrame}`;

export const ownBubble = css`
  align-self: flex-end;
  background: #ece3f5;
`;

export const code = css`
  display: inline-block;
  padding: 0.5rem 0.75rem;
  font-family: ui-monospace, 'Cascadia Mono', Menlo, monospace;
  font-size: 1.5rem;
  letter-spacing: 0.1em;
  background: ${colors.background};
  border: 2px dashed ${colors.brand};
  border-radius: 8px;
  user-select: all;
  overflow-wrap: anywhere;
`;

export const progress = css`
  width: 100%;
  height: 1rem;
`;

export const textareaField = css`
  & textarea {
    min-height: 5rem;
    resize: vertical;
  }
`;

/** A link that looks like a button (navigation stays a link for screen readers). */
export const linkButton = css`
  text-decoration: none;
`;

/** The native file input stays in the page for keyboard and screen readers, its label is the button. */
export const fileInput = css`
  position: absolute;
  width: 1px;
  height: 1px;
  opacity: 0;
  overflow: hidden;
  &:focus-visible + label {
    outline: 3px solid ${colors.focus};
    outline-offset: 2px;
  }
  &:disabled + label {
    opacity: 0.65;
    cursor: default;
  }
`;
