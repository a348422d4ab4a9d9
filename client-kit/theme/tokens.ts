/**
 * The design tokens both apps are drawn with: plain values, no styles, so any style module of either
 * app (evaluated at build time by wyw-in-js) can interpolate them.
 */

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

export const fonts = {
  /** The system's own interface font, on every platform. */
  body: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  lineHeight: 1.5,
} as const;

/** The steps of spacing the apps use between and inside elements. */
export const space = {
  xs: '0.25rem',
  s: '0.5rem',
  m: '0.75rem',
  l: '1rem',
  xl: '1.5rem',
} as const;

export const sizes = {
  /** The smallest target a finger hits reliably (WCAG 2.5.5): buttons, fields, links in bars. */
  tapTarget: '44px',
  /** Inside a text field or a button-sized control. */
  controlPadding: `${space.s} ${space.m}`,
  /** Cards, chat bubbles and dialogs. */
  cardRadius: '12px',
} as const;

/** The keyboard focus ring of every focusable element. */
export const focusRing = {
  outline: `3px solid ${colors.focus}`,
  offset: '2px',
} as const;

/**
 * The body's own rules: in the page-wide styles (global-styles.ts) and in the child app's loading
 * screen, so that they hold from the first paint. Arriving later, with the app's stylesheet, they
 * moved the whole page (Lighthouse's CLS).
 */
export const BODY_RULES = `
  margin: 0;
  font-family: ${fonts.body};
  color: ${colors.text};
  background: ${colors.background};
  line-height: ${fonts.lineHeight};
`;
