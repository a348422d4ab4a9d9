// Builds the client when dist/ is missing or older than its sources (`npm start`, `npm run cluster`).
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

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

function newest(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((f) => newest(path.join(p, f))));
}

/** The built client's folder (CLIENT_DIR or dist/), built first when it is missing or stale. */
export function buildClientIfStale(clientDir = process.env.CLIENT_DIR ?? 'dist'): string {
  const dir = path.resolve(root, clientDir);
  const built = path.join(dir, 'index.html');
  const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
  if (builtAt < Math.max(...SOURCES.map((s) => newest(path.join(root, s))))) {
    console.info('Building the client...');
    execSync(`npx vite build --logLevel warn --outDir ${JSON.stringify(dir)} --emptyOutDir`, {
      cwd: root,
      stdio: 'inherit',
    });
  }
  return dir;
}
