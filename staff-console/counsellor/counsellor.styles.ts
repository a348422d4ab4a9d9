import { css } from '@linaria/core';
import { chatList, colors, spreadRow, wide } from '../ui/styles.ts';

export { bubble, meta } from '../ui/styles.ts';

export const layout = css`
  display: grid;
  gap: 1rem;
  ${wide} {
    grid-template-columns: minmax(280px, 340px) 1fr;
    align-items: start;
  }
`;

export const section = css`
  & h2 {
    margin: 0 0 0.5rem;
    font-size: 1.25rem;
  }
  & h3 {
    margin: 0;
    font-size: 1.1rem;
  }
`;

const queueHeadSpacing = css`
  margin: 1rem 0 0.5rem;
`;

export const queueHead = `${spreadRow} ${queueHeadSpacing}`;

export const queueList = css`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 0.5rem;
`;

export const queueEntry = css`
  display: grid;
  gap: 0.25rem;
  padding: 0.75rem;
  border: 1px solid #d9d4e2;
  border-radius: 8px;
  background: ${colors.surface};
  & p {
    margin: 0;
  }
`;

export const properties = css`
  display: flex;
  flex-wrap: wrap;
  gap: 0 1rem;
  margin: 0;
  & div {
    display: flex;
    gap: 0.25rem;
  }
  & dt {
    font-weight: 600;
  }
  & dt::after {
    content: ':';
  }
  & dd {
    margin: 0;
  }
`;

export const workspace = css`
  display: grid;
  gap: 1rem;
  ${wide} {
    grid-template-columns: repeat(auto-fill, minmax(340px, 1fr));
  }
`;

export const panel = css`
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  min-width: 0;
  padding: 0.75rem;
  border: 2px solid ${colors.chat};
  border-radius: 12px;
  background: ${colors.surface};
`;

export const mailPanel = css`
  border-color: ${colors.mail};
`;

/** A panel's title and its buttons, and the composer's counter and send button: one row each. */
export const panelHead = spreadRow;

const messageListSize = css`
  max-height: 50vh;
  min-height: 8rem;
`;

export const messageList = `${chatList} ${messageListSize}`;

export const mine = css`
  align-self: flex-end;
  background: #e8f3f6;
  border-color: ${colors.chat};
`;

export const infoBubble = css`
  align-self: center;
  max-width: 100%;
  background: transparent;
  border: none;
  font-style: italic;
`;

export const failed = css`
  color: ${colors.danger};
  font-weight: 600;
`;

export const typing = css`
  min-height: 1.5rem;
  margin: 0;
  color: ${colors.muted};
  font-style: italic;
`;

export const composer = css`
  display: grid;
  gap: 0.5rem;
  & label {
    font-weight: 600;
  }
  & textarea {
    width: 100%;
    min-height: 4.5rem;
    max-height: 168px;
    padding: 0.5rem 0.75rem;
    border: 1px solid ${colors.border};
    border-radius: 8px;
    font: inherit;
    resize: vertical;
  }
`;

export const composerRow = spreadRow;

/** A chat's time left in its last 10 minutes. */
export const timeLeft = css`
  font-weight: 600;
`;

/** The child's notes: a short list that scrolls by itself, so the messages keep their room. */
export const notesList = css`
  max-height: 10rem;
  overflow-y: auto;
  margin: 0;
  padding-left: 1.25rem;
  & p {
    margin: 0.25rem 0 0.5rem;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
`;
