/** Wire shapes of the counsellor's staff API: one definition in contract/ for server and console. */
export type { QueueItem } from '../../contract/staff.ts';
