import type { RuntimeConfig } from '../../contract/config.ts';

/** The group-support variant logs in with a personal code and has no registration (SPEC §2, §5). */
export function isGroupStyle(config: RuntimeConfig): boolean {
  return config.features.supportGroup;
}

/** SPEC §4: 'chat mode' (the Chatt variant) leaves out the bot's queue explanation. */
export function isChatOnly(config: RuntimeConfig): boolean {
  return config.features.chat;
}

/** Query value of the register link: peers, chat or mail depending on the variant (SPEC §2). */
export function registerStyle(config: RuntimeConfig): 'peers' | 'chat' | 'mail' {
  if (config.features.peers) return 'peers';
  if (config.features.chat) return 'chat';
  return 'mail';
}

/** SPEC §3 Environment: test hosts are named test.* or test-*, or sit under a .test. domain. */
export function isTestHost(hostname: string): boolean {
  return /^test[.-]/.test(hostname) || hostname.includes('.test.');
}

/** SPEC §3 Environment: Test by the address, else Production or Development by the build. */
export type Environment = 'Development' | 'Production' | 'Test';

export function environmentOf(config: Pick<RuntimeConfig, 'production'>, hostname: string): Environment {
  if (isTestHost(hostname)) return 'Test';
  return config.production ? 'Production' : 'Development';
}

/** SPEC §2 Page header: the version number shows on test hosts or outside production. */
export function showsVersion(config: RuntimeConfig, hostname: string): boolean {
  return environmentOf(config, hostname) !== 'Production';
}
