// What every page may use, the first screen included: no part of it loads the data layer's code
// (Dexie, the Comlink bridge). The live queries are in ./live-queries.ts.
export {
  DataProvider,
  firstSessionPeek,
  useApi,
  useData,
  useDb,
  useOptionalData,
  useSession,
  type DataAccess,
  type Session,
} from './data-context.tsx';
export { useOpenConversation, useOpenGroupChat } from './open-while-shown.ts';
