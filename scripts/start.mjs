// `npm start`: builds the client when it is missing or older than its sources, then runs the server.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { register } from 'tsx/esm/api';

const root = path.resolve(import.meta.dirname, '..');
const SOURCES = [
  'src',
  'worker',
  'sw',
  'contract',
  'public',
  'staff-console',
  'personal',
  'index.html',
  'vite.config.ts',
  'package.json',
];

function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((f) => newest(path.join(p, f))));
}

const built = path.join(root, process.env.CLIENT_DIR ?? 'dist', 'index.html');
const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
if (builtAt < Math.max(...SOURCES.map((s) => newest(path.join(root, s))))) {
  console.info('Building the client...');
  execSync('npx vite build --logLevel warn', { cwd: root, stdio: 'inherit' });
}

register();
const { main } = await import('../server/main.ts');
await main();
