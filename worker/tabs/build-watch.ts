export const BUILD_CHANNEL = 'portal-build';

interface BuildAnnouncement {
  type: 'build';
  buildId: string;
}

/**
 * Build ids are the build's UTC time (vite.config.ts), so a larger id is a newer build. Returns true
 * when `other` should replace `mine`.
 */
export const isNewerBuild = (other: string, mine: string) => other !== mine && other > mine;

/**
 * Announces this worker's build on 'portal-build' and calls `onNewer` when a worker of a newer build
 * announces itself (a deploy happened while this old worker still served tabs). Also answers older
 * workers' announcements so they learn about us even if they started later.
 */
export function watchBuilds(
  channel: Pick<BroadcastChannel, 'postMessage' | 'addEventListener'>,
  buildId: string,
  onNewer: (newer: string) => void,
): void {
  const announce = () => channel.postMessage({ type: 'build', buildId } satisfies BuildAnnouncement);
  channel.addEventListener('message', (event: Event) => {
    const data = (event as MessageEvent<BuildAnnouncement>).data;
    if (data?.type !== 'build' || data.buildId === buildId) return;
    if (isNewerBuild(data.buildId, buildId)) onNewer(data.buildId);
    else announce();
  });
  announce();
}
