// Build-time (Node) code. The first screen on slow 4G: a signed-in child's start page needs, beside
// the entry (React, the shell, the signed-out start page), the data layer (Dexie, the Comlink
// bridge) and the signed-in parts of the start page, the header and the chat. Left to the bundler
// they came as a dozen small chunks, split by which lazy pages share each module. Every chunk is a
// request, and on HTTP/1.1 each costs a round trip on one of six connections before the page can
// be drawn. This plugin puts the modules that only those parts (the `app` roots, each imported
// dynamically) and the lazy pages after them share into one chunk, 'app'.
//
// The page's own modules (the first screen: index.html's src/main.tsx and what it imports statically,
// less what the staff console's page shares with it) are grouped with the page itself: they make its
// entry chunk, with one stylesheet, instead of a dozen chunks of their own. Neither the first screen
// nor the console ever fetches the app chunk's modules.
import path from 'node:path';
import type { Plugin } from 'vite';

export interface FirstScreenChunkOptions {
  root: string;
  /** The child app's page (index.html: the build's entry whose static graph is the first screen). */
  page: string;
  /** The modules the entry imports dynamically for a signed-in child's first screen. */
  app: string[];
}

export function firstScreenChunkPlugin({ root, page, app }: FirstScreenChunkOptions): Plugin {
  const firstScreen = new Set<string>();
  const appChunk = new Set<string>();
  return {
    name: 'first-screen-chunk',
    apply: 'build',
    buildEnd() {
      /** Every module `start` imports statically, directly or not (dynamic imports stop the walk). */
      const staticGraph = (start: string) => {
        const seen = new Set<string>();
        const stack = [start];
        while (stack.length > 0) {
          const id = stack.pop()!;
          if (seen.has(id)) continue;
          seen.add(id);
          stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return seen;
      };
      const childPage = path.join(root, page);
      // The pages (index.html, personal/index.html) are the build's entries.
      const entries = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry);
      const otherPages = new Set<string>();
      for (const id of entries) if (id !== childPage) for (const m of staticGraph(id)) otherPages.add(m);
      const child = staticGraph(childPage);
      firstScreen.clear();
      appChunk.clear();
      for (const id of child) if (!otherPages.has(id)) firstScreen.add(id);
      for (const start of app)
        for (const id of staticGraph(path.join(root, start)))
          if (!child.has(id) && !otherPages.has(id)) appChunk.add(id);
    },
    outputOptions(options) {
      return {
        ...options,
        codeSplitting: {
          // Only the modules of the groups: what the pages share (React) stays where the bundler
          // puts it; the groups' modules import it, it never imports theirs.
          includeDependenciesRecursively: false,
          groups: [
            { name: 'first-screen', test: (id: string) => firstScreen.has(id) },
            { name: 'app', test: (id: string) => appChunk.has(id) },
          ],
        },
      };
    },
  };
}
