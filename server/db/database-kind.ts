/**
 * Which engine a database URL names. Its own module, so the migrations (which differ per engine)
 * do not import database.ts, the runner that imports them.
 */
export type DatabaseKind = 'sqlite' | 'postgres';

export function databaseKind(url: string): DatabaseKind {
  return /^postgres(ql)?:\/\//.test(url) ? 'postgres' : 'sqlite';
}
