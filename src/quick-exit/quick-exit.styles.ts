import { css } from '@linaria/core';
import { colors } from '../styles/theme.ts';

/**
 * Dark, plain and the same everywhere, so a child finds it without looking. A link drawn as a
 * button: the same box as the button it was (inline-flex, centred text, no underline).
 */
export const button = css`
  display: inline-flex;
  align-items: center;
  box-sizing: border-box;
  min-height: 44px;
  padding: 0 1rem;
  text-decoration: none;
  border: 2px solid ${colors.surface};
  border-radius: 999px;
  color: ${colors.surface};
  background: ${colors.text};
  font: inherit;
  font-weight: 700;
  cursor: pointer;

  &:focus-visible {
    outline: 3px solid ${colors.focus};
    outline-offset: 2px;
  }
`;

/**
 * The strip's height: the button's 44 px and the padding. The page's sticky header stops under it
 * (src/header/page-header.styles.ts), and the strip is drawn above the header, so while the page
 * scrolls neither covers 'Lämna sidan'.
 */
export const QUICK_EXIT_STRIP_HEIGHT = 'calc(44px + 0.5rem)';

const strip = `
  display: flex;
  justify-content: flex-end;
  box-sizing: border-box;
  min-height: ${QUICK_EXIT_STRIP_HEIGHT};
  padding: 0.25rem 0.5rem;
  z-index: 25;
`;

export const placements = {
  /** The page: a strip that stays at the top while the page scrolls. */
  page: css`
    ${strip}
    position: sticky;
    top: 0;
    background: ${colors.background};
  `,
  /** A full-screen chat window (a flex column): the same strip, drawn first though it comes last. */
  window: css`
    ${strip}
    order: -1;
    /* Stays in view when large text makes the window scroll (a phone on its side). */
    position: sticky;
    top: 0;
    background: ${colors.background};
  `,
  /** Another modal: pinned to the top right of the screen, in the room the modals leave free there. */
  dialog: css`
    position: fixed;
    top: 0.25rem;
    right: 0.5rem;
    z-index: 20;
  `,
};
