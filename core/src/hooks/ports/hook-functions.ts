/**
 * Postgres-function hooks, bound to one connection or transaction of the store (a repository): so a
 * `pg-functions://` hook runs inside the transaction of the change it extends, as the reference's.
 */
export interface HookFunctions {
  /**
   * Calls `"schema"."name"(payload::jsonb)` under `set local statement_timeout` of `timeoutMs`, in
   * this transaction (or a transaction of its own when the repository is not bound to one), and
   * resolves its JSON result (null for SQL null). Rejects when the function fails or times out.
   */
  call(schema: string, name: string, payload: unknown, timeoutMs: number): Promise<unknown>;
}

/** The repositories of this slice. */
export interface HooksRepositories {
  readonly hookFunctions: HookFunctions;
}
