import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A redis-server of a test's or bench's own, on a port of its own, so that killing it (a Redis
 * restart; it keeps nothing) touches nobody else.
 */
export async function startRedis(port: number): Promise<ChildProcess> {
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    redis.stdout?.on('data', (d: Buffer) => {
      output += d.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    redis.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
  return redis;
}

/** Kills it at once (-9), as a crash or a container restart does, and waits for it to be gone. */
export const stopRedis = (redis: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (redis.exitCode !== null || redis.signalCode !== null) return resolve();
    redis.once('exit', () => resolve());
    redis.kill('SIGKILL');
  });
