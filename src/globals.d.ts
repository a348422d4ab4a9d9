/** Set by vite.config.ts at build time; the same in the UI and the worker of one build. */
declare const __BUILD_ID__: string;
