export { DataProvider, useApi, useData, useOptionalData, type DataAccess } from './data-context.tsx';
export { useNotificationCount, useProfile, useSession, type Session } from './hooks.ts';
export { useOpenConversation, useOpenGroupChat } from './open-while-shown.ts';
export { useLoadWhenBack } from './load-when-back.ts';
