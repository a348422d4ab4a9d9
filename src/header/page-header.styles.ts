import { css } from '@linaria/core';
import { colors, desktop } from '../styles/theme.ts';
import { QUICK_EXIT_STRIP_HEIGHT } from '../quick-exit/quick-exit.styles.ts';

export const header = css`
  position: sticky;
  /* Under 'Lämna sidan', which stays at the top of the screen above it. */
  top: ${QUICK_EXIT_STRIP_HEIGHT};
  z-index: 20;
  background: ${colors.surface};
  border-bottom: 1px solid #dcd6e4;
  transition: transform 0.2s ease-out;
  @media (prefers-reduced-motion: reduce) {
    transition: none;
  }
`;

/** Hidden on scrolling down, but never while a header control has keyboard focus. */
export const hidden = css`
  /* Up past the top of the screen, behind 'Lämna sidan' on its way. */
  transform: translateY(calc(-100% - ${QUICK_EXIT_STRIP_HEIGHT}));
  &:focus-within {
    transform: none;
  }
`;

export const bar = css`
  display: flex;
  /* Large text on a narrow screen: the buttons take a second row rather than leave the screen. */
  flex-wrap: wrap;
  align-items: center;
  gap: 0.25rem;
  max-width: 72rem;
  min-height: 64px;
  margin: 0 auto;
  padding: 0 0.25rem;
  @media (max-width: 359px) {
    gap: 0;
    & > button,
    & > div > button {
      width: 40px;
      min-width: 40px;
    }
  }
  ${desktop} {
    min-height: 104px;
    padding: 0 1.5rem;
    gap: 0.75rem;
  }
`;

export const organisationLogo = css`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 44px;
  height: 44px;
  padding: 0;
  border: 0;
  border-radius: 50%;
  background: transparent;
  cursor: pointer;
`;

export const logo = css`
  display: inline-flex;
  align-items: center;
  gap: 0.5rem;
  min-height: 44px;
  color: ${colors.brand};
  font-weight: 700;
  font-size: 1.125rem;
  text-decoration: none;
`;

export const logoName = css`
  display: none;
  @media (min-width: 420px) {
    display: inline;
  }
`;

export const version = css`
  padding: 0 0.375rem;
  border-radius: 4px;
  background: ${colors.background};
  color: ${colors.muted};
  font-size: 0.8125rem;
`;

export const actions = css`
  display: flex;
  align-items: center;
  margin-left: auto;
  gap: 0;
  ${desktop} {
    gap: 0.25rem;
  }
`;

export const dot = css`
  position: absolute;
  top: 9px;
  right: 10px;
  width: 10px;
  height: 10px;
  border: 2px solid ${colors.surface};
  border-radius: 50%;
  background: ${colors.danger};
`;

/** How the header's buttons look: the brand's colour on the bar, a pill that shows on hover. */
const HEADER_BUTTON = `
  border: 0;
  border-radius: 22px;
  background: transparent;
  color: ${colors.brand};
  font: inherit;
  font-weight: 600;
  cursor: pointer;
`;

export const textButton = css`
  position: relative;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 0.375rem;
  min-width: 44px;
  min-height: 44px;
  padding: 0 0.5rem;
  ${HEADER_BUTTON}
  &:hover {
    background: ${colors.background};
  }
  svg {
    width: 22px;
    height: 22px;
    flex: none;
  }
  @media (max-width: 479px) {
    span {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
      white-space: nowrap;
    }
  }
`;

/** Small screens always show the title row; desktop only when the page enables its back button. */
export const titleRow = css`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem;
  max-width: 72rem;
  margin: 0 auto;
  padding: 0 0.5rem 0.25rem;
  ${desktop} {
    display: none;
    padding: 0 1.5rem 0.5rem;
  }
`;

export const titleRowWithBack = css`
  ${desktop} {
    display: flex;
  }
`;

export const back = css`
  display: inline-flex;
  align-items: center;
  gap: 0.25rem;
  min-height: 44px;
  padding: 0 0.5rem 0 0.25rem;
  ${HEADER_BUTTON}
  svg {
    width: 20px;
    height: 20px;
  }
`;

export const title = css`
  /* Beside the back button while 8rem are left for it, else on a row of its own (large text). */
  flex: 1 1 8rem;
  min-width: 0;
  font-weight: 600;
  overflow: hidden;
  white-space: nowrap;
  text-overflow: ellipsis;
  ${desktop} {
    display: none;
  }
`;
