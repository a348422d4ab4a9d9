// The hooks that read the data worker's database with live queries (Dexie): for what a signed-in
// user sees and for cached public content, never for the first screen's own code.
export { useNotificationCount, useProfile } from './hooks.ts';
export { useLoadWhenBack } from './load-when-back.ts';
