/**
 * Postgres-function hooks on the store's connections. A `pg-functions://` hook runs with no
 * transaction of the change it extends open (see `signSession`), in a transaction of its own.
 */
export interface HookFunctions {
  /**
   * Calls `"schema"."name"(payload::jsonb)` under `set local statement_timeout` of `timeoutMs`, in a
   * transaction of its own, and resolves its JSON result (null for SQL null). Rejects when the
   * function fails or times out.
   */
  call(schema: string, name: string, payload: unknown, timeoutMs: number): Promise<unknown>;
}

/** What the store holds for this slice (outside any transaction). */
export interface HooksRepositories {
  readonly hookFunctions: HookFunctions;
}
