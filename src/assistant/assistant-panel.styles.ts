import { css } from '@linaria/core';
import { DESKTOP_MIN_WIDTH, colors, desktop } from '../styles/theme.ts';

/** On a phone the sheet takes at most this much of the screen's height; the page keeps the rest. */
const PHONE_SHEET_HEIGHT = '60dvh';

/** A sheet over the bottom of a phone's screen; a side panel at the bottom right on a desktop. */
export const panel = css`
  position: fixed;
  left: 0;
  right: 0;
  bottom: 0;
  z-index: 30;
  display: flex;
  flex-direction: column;
  max-height: ${PHONE_SHEET_HEIGHT};
  /* Writing to the assistant (the keyboard open): the answers keep room above the question. */
  @media (max-width: ${DESKTOP_MIN_WIDTH - 1}px) {
    &:has(:is(input, textarea):focus) {
      max-height: 85dvh;
    }
  }
  background: ${colors.surface};
  border-top: 2px solid ${colors.brand};
  box-shadow: 0 -2px 12px rgb(0 0 0 / 20%);
  ${desktop} {
    left: auto;
    right: 1rem;
    bottom: 1rem;
    width: 26rem;
    max-height: 80vh;
    border: 2px solid ${colors.brand};
    border-radius: 12px;
  }
`;

export const header = css`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 0.5rem;
  padding: 0.5rem 0.75rem;
  border-bottom: 1px solid ${colors.background};
  h2 {
    margin: 0;
    font-size: 1.25rem;
  }
`;

export const body = css`
  overflow-y: auto;
  padding: 0.75rem;
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  p,
  h3 {
    margin: 0;
  }
  h3 {
    font-size: 1rem;
  }
`;

export const topics = css`
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  margin: 0;
  padding: 0;
  list-style: none;
`;

export const log = css`
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  &:empty {
    display: none;
  }
`;

export const entry = css`
  padding: 0.5rem 0.75rem;
  border-radius: 12px;
  background: ${colors.background};
  white-space: pre-line;
`;

export const childEntry = css`
  align-self: flex-end;
  max-width: 85%;
  background: ${colors.brand};
  color: #fff;
`;

export const author = css`
  display: block;
  font-size: 0.875rem;
  font-weight: 600;
`;

export const steps = css`
  display: flex;
  flex-direction: column;
  align-items: flex-start;
  gap: 0.5rem;
`;

export const stepButtons = css`
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
`;

export const form = css`
  display: flex;
  flex-direction: column;
  gap: 0.25rem;
`;

export const formRow = css`
  display: flex;
  gap: 0.5rem;
  input {
    flex: 1;
    min-width: 0;
  }
`;

export const error = css`
  color: ${colors.danger};
`;

/**
 * While the sheet is open on a phone the page can scroll its last part above it, and what takes the
 * focus comes above it: nothing on the page, 'Starta en chatt' included, is out of reach under it.
 */
export const pageRoom = css`
  :global() {
    @media (max-width: ${DESKTOP_MIN_WIDTH - 1}px) {
      body:has(.${panel}) {
        padding-bottom: ${PHONE_SHEET_HEIGHT};
      }
      /* What gets focus (or is scrolled to) is brought above the sheet, not under it. */
      html:has(.${panel}) {
        scroll-padding-bottom: ${PHONE_SHEET_HEIGHT};
      }
    }
  }
`;
