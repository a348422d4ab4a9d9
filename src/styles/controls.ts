import { css } from '@linaria/core';
import { POINTER_UP_DARKEN_MS } from '../../contract/timings.ts';
import { colors, sizes } from './theme.ts';

/** Buttons and fields shared by every screen. */
const pillButton = css`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-height: ${sizes.tapTarget};
  padding: 0.5rem 1.25rem;
  border: 2px solid ${colors.brand};
  border-radius: 999px;
  font: inherit;
  font-weight: 600;
  text-align: center;
  /* With large text on a narrow screen a long word breaks rather than running off the screen. */
  overflow-wrap: anywhere;
  cursor: pointer;
  /* SPEC §9: a pressed button darkens, and lightens again over 200 ms once the pointer is up. */
  transition: filter ${POINTER_UP_DARKEN_MS}ms ease-out;
  &:active:not(:disabled) {
    filter: brightness(0.85);
    transition: none;
  }
  @media (prefers-reduced-motion: reduce) {
    transition: none;
  }
`;

const primaryColours = css`
  background: ${colors.brand};
  color: #fff;
  &:hover {
    background: ${colors.brandDark};
  }
  &:disabled,
  &[aria-disabled='true'] {
    background: #6e6e78;
    border-color: #6e6e78;
    cursor: not-allowed;
  }
`;

const secondaryColours = css`
  background: ${colors.surface};
  color: ${colors.brand};
  &:hover {
    background: ${colors.background};
  }
`;

export const primaryButton = `${pillButton} ${primaryColours}`;
export const secondaryButton = `${pillButton} ${secondaryColours}`;

export const iconButton = css`
  position: relative;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: ${sizes.tapTarget};
  height: ${sizes.tapTarget};
  padding: 0;
  border: 0;
  border-radius: 50%;
  background: transparent;
  color: ${colors.brand};
  cursor: pointer;
  &:hover {
    background: ${colors.background};
  }
  svg {
    width: 24px;
    height: 24px;
  }
`;

/** A button that reads as a link: it acts in place (opens, shows) rather than going somewhere. */
export const linkButton = css`
  min-height: ${sizes.tapTarget};
  padding: 0;
  border: 0;
  background: none;
  color: ${colors.brand};
  font: inherit;
  text-decoration: underline;
  cursor: pointer;
`;

/** How every box a user types in looks: an input, a select, a text area. */
export const TEXT_BOX = `
  padding: 0.5rem 0.75rem;
  border: 1px solid ${colors.border};
  border-radius: 6px;
  font: inherit;
  color: ${colors.text};
  background: ${colors.surface};
`;

export const field = css`
  display: flex;
  flex-direction: column;
  gap: 0.25rem;
  margin-bottom: 1rem;
  label {
    font-weight: 600;
  }
  input,
  select {
    min-height: ${sizes.tapTarget};
    ${TEXT_BOX}
  }
  input::placeholder {
    color: ${colors.muted};
  }
  input[aria-invalid='true'],
  select[aria-invalid='true'] {
    border: 2px solid ${colors.danger};
  }
`;

export const fieldError = css`
  margin: 0;
  color: ${colors.danger};
  font-size: 0.9375rem;
`;

export const page = css`
  width: 100%;
  max-width: 72rem;
  margin: 0 auto;
  padding: 1rem;
  &:focus {
    outline: none;
  }
  @media (min-width: 768px) {
    padding: 1.5rem;
  }
`;
