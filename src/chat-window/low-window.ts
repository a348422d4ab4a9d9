/** Set on the chat window while the visual viewport is low (the keyboard open): the compact layout. */
export const LOW_WINDOW_ATTRIBUTE = 'data-low';
/** 30rem at the default text size, the same line as the styles' media query. */
export const LOW_WINDOW_PX = 480;
