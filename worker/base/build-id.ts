// A module-local declaration: src/globals.d.ts declares the same global for the UI, and a second
// global declaration in worker/ would clash when tsc checks both folders together.
declare const __BUILD_ID__: string;

/**
 * The build id Vite compiles into the UI and the worker alike (vite.config.ts `define`). Outside a
 * Vite build (vitest in Node) the identifier is not defined, so fall back to a fixed id.
 */
export const BUILD_ID: string = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'dev';
