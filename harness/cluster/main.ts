// `npm run cluster`: several server processes on PostgreSQL and Redis behind nginx, the way a site
// runs more than one process (docs/operations.md), with a rolling upgrade on SIGHUP.
import { clusterOptionsOf, startCluster, type Cluster, type ClusterOptions } from './cluster.ts';

async function main() {
  const { buildClientIfStale } = await import('../../scripts/client-build.ts');
  const options: ClusterOptions = {
    ...clusterOptionsOf(process.env),
    clientDir: buildClientIfStale(),
    log: (line) => console.info(line),
  };
  const { processes, databaseUrl } = options;
  console.info(`Starting ${processes} server processes behind nginx...`);
  const cluster = await startCluster(options);
  console.info(
    `\nThe site runs at ${cluster.url} (nginx), database ${databaseUrl.replace(/\/\/[^@]*@/, '//')}`,
  );
  for (const node of cluster.nodes)
    console.info(`  ${node.id}: ${node.url} (its /metrics: ${node.url}/metrics)`);
  console.info(
    `\nA rolling upgrade to the checkout as it is now (docs/operations.md, "Rolling upgrade"): kill -HUP ${process.pid}`,
  );
  console.info('Press Ctrl-C to stop (each process drains its hub connections first).');
  let upgrading: Promise<void> | null = null;
  process.on('SIGHUP', () => {
    if (upgrading) return console.info('An upgrade is running already.');
    upgrading = rollingUpgrade(cluster)
      .catch((error: unknown) => {
        console.error('The upgrade stopped:', error instanceof Error ? error.message : error);
      })
      .finally(() => {
        upgrading = null;
      });
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.info('\nStopping...');
    await cluster.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

/**
 * SIGHUP: a release of the checkout as it is now (its server code and a client built with a new
 * BUILD_ID), rolled out one process at a time. The first new process applies the release's
 * migrations as it starts; the old ones run on (migrations only add).
 */
async function rollingUpgrade(cluster: Cluster) {
  const { prepareRelease } = await import('../../scripts/release.ts');
  console.info('Upgrade: building the release...');
  const release = await prepareRelease({ client: 'build', previousClientDir: cluster.release().clientDir });
  console.info(`Upgrade: release ${release.id} in ${release.root}; replacing the processes one at a time`);
  await cluster.upgrade(release, (node) => console.info(`Upgrade: ${node.id} runs release ${release.id}`));
  console.info(`Upgrade: done; every process runs release ${release.id}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error('The cluster could not start:', error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
