export * from './variant.ts';
export * from './config.ts';
export * from './profile.ts';
export * from './logging.ts';
export * from './hub.ts';
export * from './errors.ts';
export * from './meetings.ts';
export * from './conversations.ts';
