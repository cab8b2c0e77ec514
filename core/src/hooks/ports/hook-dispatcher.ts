import type { PortTraits, Result } from "../../kernel/index.js";
import type { HookName } from "../names.js";
import type { HookInputs } from "../payloads.js";

/**
 * Runs the configured auth hooks (`HOOK_<NAME>_URI`): a Postgres function (`pg-functions://`) or an
 * HTTP endpoint signed with Standard Webhooks (`https://`, `http://` to loopback only).
 */
export interface HookDispatcher {
  /** Whether hook `name` is enabled. A use case skips a disabled hook without building its input. */
  enabled(name: HookName): boolean;
  /**
   * Whether hook `name` runs over HTTP. Such a hook must not be called while a transaction is open
   * (a slow endpoint would hold a pooled connection); a Postgres function may be.
   */
  overHttp(name: HookName): boolean;
  /**
   * Runs hook `name` with `input` and resolves its answer as parsed JSON (`{}` for an empty one),
   * or the failure to answer: the hook's own error object (`{"error": {"http_code", "message"}}`,
   * see `failures.hookError`), a timeout, an unusable answer. A Postgres-function hook runs in a
   * transaction of its own: no caller holds one open across a hook. Rejects only for faults (a
   * database error inside the function included).
   */
  run<N extends HookName>(name: N, input: HookInputs[N]): Promise<Result<Readonly<Record<string, unknown>>>>;
}

/** A hook waits on its endpoint or its function, not on this process's work. */
export const hookDispatcherTraits: PortTraits<HookDispatcher> = { run: { waitsOutside: true } };
