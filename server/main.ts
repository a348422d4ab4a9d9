import { loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { DEMO_LOGINS } from './db/seed.ts';
import { eraseLoggedErasuresAgain } from './jobs/erasure-replay.ts';
import { SERVER_APPLICATION_NAME } from './db/backup.ts';

/** Starts the reference server; Ctrl-C (SIGINT) or SIGTERM stop it cleanly. */
export async function main() {
  const config = loadConfig();
  // PostgreSQL lists the server's connections under this name, where `npm run restore` sees a
  // running site (server/db/backup.ts).
  process.env.PGAPPNAME ??= SERVER_APPLICATION_NAME;
  // Every failure (a 500) is logged; each request only with LOG_REQUESTS=1.
  const { app, ctx, close } = await buildApp(config, {
    logger: true,
    logRequests: process.env.LOG_REQUESTS === '1',
  });
  // After a restore: whoever was erased since the backup was taken is erased again before anyone is
  // served (docs/operations.md, "Backup and restore").
  const replay = await eraseLoggedErasuresAgain(ctx).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  if (replay.erasedAgain > 0) {
    console.info(`Erasure log ${replay.file}: ${replay.erasedAgain} restored account(s) erased again.`);
  }
  if (replay.unreadable > 0) {
    console.warn(`Erasure log ${replay.file}: ${replay.unreadable} line(s) cut short were skipped.`);
  }
  // backlog: when another process dies, its clients' connections (a WebSocket upgrade each, through
  // nginx) arrive here within a second or two; Node's default queue of 511 unaccepted connections
  // drops the rest, whose connect then times out at nginx as a 502. The kernel caps it at
  // net.core.somaxconn (4096 here; raise that too where it is lower).
  await app.listen({ port: config.port, host: config.host, backlog: 4096 });
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;
  const db = config.databaseUrl.startsWith('postgres') ? 'PostgreSQL' : `SQLite (${config.databaseUrl})`;
  console.info(`\nThe app (variant ${config.variant}) runs at ${url}  - database: ${db}`);
  console.info(`The staff console (counsellors, group leaders) is at ${url}/personal`);
  if (config.redisUrl) console.info('Hub fan-out goes through Redis.');
  if (!config.demoSeed) {
    console.info(
      config.exposed
        ? `\nDemo data: off - HOST ${config.host} is reachable from other machines; set DEMO_SEED=1 to seed it anyway.`
        : '\nDemo data: off (DEMO_SEED is off or NODE_ENV=production).',
    );
  } else {
    if (config.exposed) {
      // On stdout, in order with the rest of the start output.
      const how =
        config.trustProxy.length > 0 || config.publicOrigin
          ? `behind a proxy (${config.publicOrigin ? 'PUBLIC_ORIGIN' : 'TRUST_PROXY'})`
          : `on HOST ${config.host}`;
      console.info(
        `\nWARNING: demo logins with published passwords, reachable from other machines ${how} (DEMO_SEED=1).`,
      );
    }
    // What server/auth/demo-login-guard.ts refuses.
    if (!config.exposed) {
      console.info(
        '\nDemo logins answer only requests made to this server directly from this machine: one that came through a proxy (a header such as X-Forwarded-For or Via, HTTP/1.0 as a bare nginx proxy_pass speaks, another Host or a peer that is not loopback) is refused them.',
      );
    } else if (config.trustProxy.length === 0) {
      console.info(
        '\nDemo logins answer only requests made to this server directly: one that a proxy forwarded (X-Forwarded-For, Forwarded, Via) is refused them, since TRUST_PROXY names no proxy.',
      );
    }
    console.info('\nDemo logins:');
    console.info(`  child:            ${DEMO_LOGINS.child.username} / ${DEMO_LOGINS.child.password}`);
    console.info(
      `  group support:    personal codes ${DEMO_LOGINS.participantCodes.join(', ')} (APP_VARIANT=gruppstod)`,
    );
    console.info(
      `  counsellor:       ${DEMO_LOGINS.counsellor.username} / ${DEMO_LOGINS.counsellor.password} (staff console)`,
    );
    console.info(
      `  group leader:     ${DEMO_LOGINS.groupLeader.username} / ${DEMO_LOGINS.groupLeader.password} (staff console)`,
    );
    console.info(
      `  administrator:    ${DEMO_LOGINS.admin.username} / ${DEMO_LOGINS.admin.password} (staff API: audit log, roles)`,
    );
  }
  console.info('\nPress Ctrl-C to stop.');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.info(`\n${signal}: stopping...`);
    await close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error('The server could not start:', error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
