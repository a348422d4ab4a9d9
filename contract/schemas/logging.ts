import { Type, type Static } from '@sinclair/typebox';
import { Body, Text } from './common.ts';

/** POST {api}/createclientlogs (SPEC §7 Logging); the server keeps a shortened copy. */
export const ClientLogBody = Body({
  message: Text(100_000),
  stack: Type.Optional(Text(100_000)),
  url: Type.Optional(Text(10_000)),
  level: Type.Optional(Text(20)),
});
export type ClientLogBody = Static<typeof ClientLogBody>;
