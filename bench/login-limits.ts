/**
 * Login limits, measured (npm run bench:logins): how many guesses a day each counter lets through to
 * a guesser who tries again the moment `Retry-After` allows, against the real server (its token
 * endpoint, its database, its password checks) with the clock of this process stepped forward by
 * each wait instead of waiting it. The login-limit table of docs/security.md quotes these figures.
 *
 * 1. one username from one address (passwords);
 * 2. personal codes from one address;
 * 3. one address across usernames (a new username each time);
 * 4. one username from all addresses (a new address each time);
 * 5. the rightful child's app (its device token) from a new address, while 4 goes on: let in;
 * 6. one username from all addresses with a copy of the child's device token, while the child's app
 *    goes on signing in from new addresses with the token it holds (each login replaces it).
 */
import { startTestServer } from '../harness/test-server.ts';
import { deviceOf, tryLogin } from '../harness/attack.ts';

const DAY_MS = 24 * 3600_000;
const realNow = Date.now.bind(Date);
let offset = 0;
Date.now = () => realNow() + offset;

/** Guesses through one simulated day; `attempt(i)` makes the i-th and answers its status and wait. */
async function oneDay(attempt: (i: number) => Promise<{ status: number; retryAfter: string | null }>) {
  const start = Date.now();
  let guesses = 0;
  let i = 0;
  while (Date.now() - start < DAY_MS) {
    const answer = await attempt(i++);
    if (answer.status === 429) offset += Math.max(1, Number(answer.retryAfter ?? 1)) * 1000;
    else guesses++;
    if (i > 100_000) throw new Error('no limit reached');
  }
  return guesses;
}

async function main() {
  const server = await startTestServer({ config: { rateLimitFactor: 1, trustProxy: ['127.0.0.1'] } });
  const url = server.url;
  const results: Record<string, number> = {};
  try {
    results['one username from one address'] = await oneDay(() =>
      tryLogin(url, 'demo', 'fel-losenord', '203.0.113.1'),
    );
    offset += 2 * DAY_MS;
    results['personal codes from one address'] = await oneDay((i) =>
      tryLogin(url, `GISSNING-${i}-XYZ`, '', '203.0.113.2'),
    );
    offset += 2 * DAY_MS;
    results['one address across usernames'] = await oneDay((i) =>
      tryLogin(url, `namn-${i}`, 'fel-losenord', '203.0.113.3'),
    );
    offset += 2 * DAY_MS;
    // The child's app signed in once, from home, and was issued its device token; each later login
    // brings the token it holds and keeps the one it is issued in its place.
    let device = deviceOf(await tryLogin(url, 'demo', 'demo-losenord', '198.51.100.1'));
    const childLogin = async (address: string) => {
      const answer = await tryLogin(url, 'demo', 'demo-losenord', address, undefined, device);
      if (answer.status === 200) device = deviceOf(answer);
      return answer.status === 200;
    };
    let childIn = 0;
    let childTries = 0;
    results['one username from all addresses'] = await oneDay(async (i) => {
      const answer = await tryLogin(
        url,
        'demo',
        'fel-losenord',
        `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      );
      if (i % 50 === 49) {
        childTries++;
        if (await childLogin(`198.51.100.${100 + (childTries % 100)}`)) childIn++;
      }
      return answer;
    });
    results['the child’s own app from new addresses meanwhile (let in, of tries)'] = childIn;
    results['tries by the child’s own app'] = childTries;
    offset += 2 * DAY_MS;
    // Someone copied the token the child's app holds now, and guesses with it from everywhere.
    const copy = device;
    let childInWithCopy = 0;
    let childTriesWithCopy = 0;
    results['one username from all addresses, with a copy of the child’s device token'] = await oneDay(
      async (i) => {
        const answer = await tryLogin(
          url,
          'demo',
          'fel-losenord',
          `10.${100 + ((i >> 16) & 127)}.${(i >> 8) & 255}.${i & 255}`,
          undefined,
          copy,
        );
        if (i % 50 === 49) {
          childTriesWithCopy++;
          if (await childLogin(`198.51.101.${childTriesWithCopy % 250}`)) childInWithCopy++;
        }
        return answer;
      },
    );
    results['the child’s own app from new addresses, with the copy about (let in)'] = childInWithCopy;
    results['tries by the child’s own app, with the copy about'] = childTriesWithCopy;
  } finally {
    await server.dispose();
  }
  console.info('guesses a day that reach a password or code check:');
  for (const [what, n] of Object.entries(results)) console.info(`  ${what.padEnd(72)} ${n}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
