// Build-time (Node) code. Issue 15, the first screen on slow 4G: the app's code behind the loading
// screen (src/app.tsx and what it imports statically) came as a dozen small chunks, split by which
// lazy pages share each module. Every chunk is a request, and on HTTP/1.1 each costs a round trip
// on one of six connections before the start page can be drawn. This plugin puts the modules that
// only the app's first screen and the lazy pages after it share into one chunk, 'app': the lazy
// pages import from it (it is always loaded before them). Lighthouse's simulated LCP of the
// logged-out start page went from 2.1-2.4 s to 1.8-2.3 s with it (bench/lighthouse.ts).
//
// Left out of the group: whatever a page imports statically (index.html's entry, src/main.tsx, with
// React: what comes before the first render; the staff console's page), so that neither the entry
// nor the console ever fetches the child app's code.
import path from 'node:path';
import type { Plugin } from 'vite';

export function firstScreenChunkPlugin({ root, app }: { root: string; app: string }): Plugin {
  const firstScreen = new Set<string>();
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
      // The pages (index.html, personal/index.html) are the build's entries.
      const elsewhere = new Set<string>();
      for (const id of this.getModuleIds()) {
        if (this.getModuleInfo(id)?.isEntry) for (const m of staticGraph(id)) elsewhere.add(m);
      }
      firstScreen.clear();
      for (const id of staticGraph(path.join(root, app))) if (!elsewhere.has(id)) firstScreen.add(id);
    },
    outputOptions(options) {
      return {
        ...options,
        codeSplitting: {
          // Only the modules of the group: the entry's and the other pages' stay where they are
          // (the group's modules import them; they never import the group's).
          includeDependenciesRecursively: false,
          groups: [{ name: 'app', test: (id: string) => firstScreen.has(id) }],
        },
      };
    },
  };
}
