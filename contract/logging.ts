/** POST {api}/createclientlogs (SPEC §3 Client log, §7 Logging). */
export interface ClientLogRequest {
  message: string;
  stack?: string | null;
  /** Without query or hash. */
  url?: string | null;
  level?: string;
}
