import { css } from '@linaria/core';
import { colors, desktop } from '../styles/theme.ts';
import { emergency } from '../ui-kit/emergency-link.styles.ts';
import { LOW_WINDOW_ATTRIBUTE } from './low-window.ts';

/**
 * A low window: a phone with its keyboard open (half of 568-844 px), or turned on its side. The
 * header goes on one line and 'Skicka' beside the text box, so the writing stays on screen. A
 * browser that shrinks only the visual viewport for the keyboard (Safari) leaves the media query
 * false: there the window is marked `data-low` (use-visual-viewport.ts).
 */
const lowScreen = (rules: string) => `
  @media (max-height: 30rem) {
    ${rules}
  }
  [${LOW_WINDOW_ATTRIBUTE}] & {
    ${rules}
  }
`;

/**
 * The full-screen window is as tall as the visual viewport (use-visual-viewport.ts), so with the
 * on-screen keyboard open the input stays above it. Its body scrolls; the window as a whole only
 * when even its header and input do not fit (large text on a phone on its side).
 */
export const fullScreen = css`
  width: 100%;
  height: var(--chat-window-height, 100%);
  top: var(--chat-window-top, 0);
  bottom: auto;
  overflow-y: auto;
  max-width: none;
  max-height: none;
  margin: 0;
  padding: 0;
  border: 0;
  color: ${colors.text};
  background: ${colors.background};
  &[open] {
    display: flex;
    flex-direction: column;
  }
  &::backdrop {
    background: rgb(20 10 30 / 55%);
  }
`;

export const header = css`
  flex: none;
  display: flex;
  /* Large text on a narrow screen: the buttons go below the title rather than squeeze it. */
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem;
  padding: 0.5rem 1rem;
  background: ${colors.surface};
  border-top: 6px solid ${colors.chat};
  box-shadow: 0 1px 4px rgb(0 0 0 / 12%);
  h2 {
    margin: 0;
    font-size: 1.125rem;
  }
  ${lowScreen(`
    flex-wrap: nowrap;
    padding: 0.25rem 1rem;
  `)}
`;

export const headerInfo = css`
  flex: 1 1 6rem;
  min-width: 0;
  p {
    margin: 0;
    color: ${colors.muted};
  }
  /* One line: the title, then as much of the status as fits (a screen reader hears it all). */
  ${lowScreen(`
    display: flex;
    align-items: baseline;
    gap: 0.5rem;
    flex-basis: 0;
    white-space: nowrap;
    > * {
      min-width: 0;
      overflow: hidden;
      text-overflow: ellipsis;
    }
    h2 {
      flex: 0 1 auto;
    }
    p {
      flex: 1 1 0;
    }
    p * {
      display: inline;
    }
  `)}
`;

export const messages = css`
  position: relative;
  /* The list scrolls itself (the virtual list needs that): all the body's room, never under a few lines. */
  flex: 1 1 0;
  min-height: 6rem;
  overflow-y: auto;
  padding: 1rem;
  list-style: none;
  margin: 0;
`;

/**
 * Between the header and the input: the message list and, in the queue, the blocks around it. It
 * takes what the header and the input leave, and scrolls when that is too little for them all.
 */
export const body = css`
  flex: 1 1 auto;
  min-height: 0;
  display: flex;
  flex-direction: column;
  overflow-y: auto;
  overscroll-behavior: contain;
  > :not(.${messages}) {
    flex: none;
  }
  > .${emergency} {
    padding: 0 1rem;
  }
`;

export const bubble = css`
  max-width: 80%;
  margin: 0.5rem 0;
  padding: 0.5rem 0.75rem;
  border-radius: 12px;
  background: ${colors.surface};
  overflow-wrap: anywhere;
  p {
    margin: 0;
  }
`;

export const mine = css`
  margin-left: auto;
  background: #ece3f5;
`;

export const info = css`
  max-width: 100%;
  text-align: center;
  background: transparent;
  font-weight: 600;
  color: ${colors.muted};
`;

export const author = css`
  display: block;
  font-size: 0.875rem;
  font-weight: 600;
  color: ${colors.muted};
`;

export const status = css`
  display: block;
  font-size: 0.8125rem;
  color: ${colors.muted};
  text-align: right;
`;

export const failed = css`
  color: ${colors.danger};
`;

export const refusedActions = css`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: 0.25rem 0.75rem;
  margin-top: 0.25rem;
`;

/** A small action under a bubble: a real button that reads as a link, at least 44 px to tap. */
export const textButton = css`
  min-height: 44px;
  padding: 0 0.25rem;
  border: none;
  background: none;
  color: inherit;
  font: inherit;
  font-size: 0.875rem;
  font-weight: 600;
  text-decoration: underline;
  cursor: pointer;

  &:focus-visible {
    outline: 2px solid currentColor;
    outline-offset: 2px;
  }

  &:disabled {
    opacity: 0.6;
    cursor: progress;
  }
`;

export const newMessages = css`
  position: sticky;
  bottom: 0.5rem;
  display: block;
  margin: 0 auto;
`;

export const typing = css`
  min-height: 1.5rem;
  padding: 0 1rem;
  font-style: italic;
  color: ${colors.muted};
`;

export const footer = css`
  flex: none;
  padding: 0.75rem 1rem;
  background: ${colors.surface};
  textarea {
    width: 100%;
    min-height: 44px;
    max-height: 168px;
    padding: 0.5rem 0.75rem;
    border: 1px solid ${colors.border};
    border-radius: 6px;
    font: inherit;
    resize: none;
  }
  ${lowScreen(`
    display: grid;
    grid-template-columns: 1fr auto;
    grid-template-areas: 'prompt prompt' 'text send' 'option option';
    align-items: end;
    gap: 0.25rem 0.5rem;
    padding: 0.5rem 1rem;
    > p {
      grid-area: prompt;
    }
    textarea {
      grid-area: text;
      /* A quarter of the window at most: the messages keep the rest. */
      max-height: min(168px, calc(var(--chat-window-height, 100vh) / 4));
    }
    /* The row's parts go to the grid: 'Skicka' beside the text box, the rest under it. */
    > div {
      display: contents;
    }
    > div > * {
      grid-area: option;
    }
    > div > button {
      grid-area: send;
    }
  `)}
`;

export const footerRow = css`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.75rem;
  margin-top: 0.5rem;
  label {
    display: inline-flex;
    align-items: center;
    gap: 0.25rem;
    min-height: 44px;
  }
`;

export const counter = css`
  display: none;
  color: ${colors.muted};
  ${desktop} {
    display: inline;
  }
`;

export const send = css`
  margin-left: auto;
`;

export const minimizedBar = css`
  position: fixed;
  right: 1rem;
  bottom: 1rem;
  z-index: 40;
`;

export const prompt = css`
  margin: 0 0 0.25rem;
  font-weight: 600;
`;

export const headerButton = css`
  white-space: nowrap;
`;

export const choices = css`
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  padding: 0.5rem 1rem 1rem;
  p {
    flex-basis: 100%;
    margin: 0;
    font-weight: 600;
  }
`;

/** A second status line in the header (the queue place under 'Du väntar på din tur'). */
export const statusLine = css`
  display: block;
  font-weight: 600;
`;

/** The one-to-one chat's time left: under the status line, in the text colour. */
export const timeLeft = css`
  display: block;
  font-weight: 600;
  color: ${colors.text};
`;

export const notice = css`
  margin: 0;
  padding: 0.5rem 1rem;
  background: #fff4ce;
  color: #4a3b00;
  font-size: 0.9375rem;
`;
