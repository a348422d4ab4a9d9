// `npm start`: builds the client when it is missing or older than its sources, then runs the server.
import { register } from 'tsx/esm/api';

register();
const { buildClientIfStale } = await import('./client-build.ts');
buildClientIfStale();
const { main } = await import('../server/main.ts');
await main();
