/** Where mail to a counsellor lives, per variant (the worker's notices use the same paths). */
export { mailPaths } from '../../contract/mail-paths.ts';
