import { css } from '@linaria/core';

/** Colours with at least 4.5:1 contrast on white, for text and controls. */
export const colors = {
  brand: '#5b2a86',
  brandDark: '#3f1d5e',
  text: '#1f1f24',
  muted: '#55555f',
  surface: '#ffffff',
  background: '#f6f3fa',
  danger: '#b3261e',
  success: '#1e7a3c',
  border: '#8a8a96',
  focus: '#1a5fb4',
  chat: '#0b5e73',
  mail: '#7a3b00',
  peers: '#2d5a1e',
} as const;

export const DESKTOP_MIN_WIDTH = 768;
export const desktop = `@media (min-width: ${DESKTOP_MIN_WIDTH}px)`;

export const globalStyles = css`
  :global() {
    *,
    *::before,
    *::after {
      box-sizing: border-box;
    }
    html {
      scroll-padding-top: 120px;
    }
    body {
      margin: 0;
      font-family:
        system-ui,
        -apple-system,
        'Segoe UI',
        Roboto,
        sans-serif;
      color: #1f1f24;
      background: #f6f3fa;
      line-height: 1.5;
    }
    a {
      color: #5b2a86;
    }
    :focus-visible {
      outline: 3px solid #1a5fb4;
      outline-offset: 2px;
    }
    .visually-hidden {
      position: absolute;
      width: 1px;
      height: 1px;
      margin: -1px;
      padding: 0;
      overflow: hidden;
      clip: rect(0 0 0 0);
      white-space: nowrap;
      border: 0;
    }
  }
`;
