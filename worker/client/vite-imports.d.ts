/** Vite's `?worker&url` import: the address of the bundled worker script (ES module, vite.config.ts). */
declare module '*?worker&url' {
  const url: string;
  export default url;
}
