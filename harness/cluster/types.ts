// The shapes of a cluster: what it is started with, and what the tests and benches hold of it.
import type { Release } from '../../scripts/release.ts';

export interface ClusterOptions {
  /** Server processes behind nginx (CLUSTER_PROCESSES, 2). */
  processes: number;
  /** nginx's port, the site's address (PORT, 8080); the processes take the ports after it. */
  port: number;
  databaseUrl: string;
  redisUrl: string;
  /** The built client; none served when it does not exist (the tests and benches need no pages). */
  clientDir: string;
  /** More environment for every process (APP_VARIANT, limits for a bench, ...); never DEMO_SEED. */
  env?: Record<string, string | undefined>;
  /**
   * The demo logins and data (DEMO_SEED=1), off unless asked for: a cluster is a deployment, and
   * behind its nginx (TRUST_PROXY) they answer whoever reaches the site. The chaos run and the
   * cluster's tests ask for them.
   */
  demoSeed?: boolean;
  /** Where the processes' output goes, line by line with their node id in front; dropped by default. */
  log?: (line: string) => void;
  /**
   * 'site' (the default): nginx sets X-Forwarded-Host to the site's host and the processes run with
   * PUBLIC_ORIGIN, so no header a client sends names the site. 'loopback': the processes take the
   * host nginx was asked for and believe only a loopback one; for the chaos run, whose browsers
   * reach the cluster through fault proxies at origins of their own.
   */
  origin?: 'site' | 'loopback';
}

/** A node as nginx routes to it: its id (the hub connection tokens' prefix) and port. */
export interface Upstream {
  id: string;
  port: number;
}

export interface ClusterNode {
  /** NODE_ID, which starts its hub connection tokens: n1, n2, ... */
  id: string;
  port: number;
  /** The process itself, for its /metrics (never served through nginx). */
  url: string;
  pid(): number | undefined;
  running(): boolean;
}

export interface Cluster {
  /** The site's address: nginx. */
  url: string;
  nodes: ClusterNode[];
  /** Signals a process and waits for it to exit (SIGKILL: nothing drained; SIGTERM: drained). */
  kill(index: number, signal?: NodeJS.Signals): Promise<void>;
  /**
   * Starts a stopped process again on its port and waits until it is up; `env` comes on top of the
   * cluster's for this start only (a fault point such as FAULT_KILL_AFTER_CREATE).
   */
  start(index: number, env?: Record<string, string | undefined>): Promise<void>;
  /** The release the processes start from now (the checkout, until an upgrade). */
  release(): Release;
  /**
   * A rolling upgrade: replaces the processes one at a time with `release`, each drained (SIGTERM)
   * and started again before the next goes, so the site always has a process up and the old and the
   * new release serve side by side meanwhile. `replaced` hears of each process as it comes up, and
   * the next waits for it.
   */
  upgrade(release: Release, replaced?: (node: ClusterNode) => void | Promise<void>): Promise<void>;
  /** Resolves when the process running now exits (at once when none runs), with its signal or code. */
  untilExit(index: number): Promise<NodeJS.Signals | number | null>;
  /** nginx re-reads its config and replaces its workers, as a deploy does (SIGHUP). */
  reloadNginx(): Promise<void>;
  /** Drains every process (SIGTERM), then stops nginx. */
  stop(): Promise<void>;
}
