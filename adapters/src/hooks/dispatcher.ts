import { randomUUID } from "node:crypto";
import { failures } from "@authsvc/core";
import type { User } from "@authsvc/core/accounts";
import {
  HOOK_PAYLOAD_NAMES,
  type HookDispatcher,
  type HookFunctions,
  type HookName,
  hookAnswerFailure,
} from "@authsvc/core/hooks";
import type { Result } from "@authsvc/core/kernel";
import { type HookTarget, parseHookUri } from "./hook-uri.js";
import { type HttpHookOptions, httpHook } from "./http-hook.js";

/** The reference's statement timeout of a Postgres-function hook. */
export const POSTGRES_HOOK_TIMEOUT_MS = 2_000;

/** One enabled hook: `HOOK_<NAME>_URI` and `HOOK_<NAME>_SECRETS`. */
export interface HookSetting {
  readonly uri: string;
  readonly secrets: readonly string[];
}

/** What the log hears of each run (the reference's `run_hook` entry). */
export interface HookRun {
  readonly hook: HookName;
  readonly uri: string;
  readonly success: boolean;
  readonly durationMs: number;
  /** Why it failed: for a Postgres function, the database's own message (never its detail). */
  readonly error?: string;
  /** The SQLSTATE of a Postgres function's failure (`42883`: no such function, `57014`: timeout). */
  readonly dbCode?: string;
}

export interface HookDispatcherOptions {
  /** The enabled hooks; any other is off. */
  readonly hooks: Partial<Readonly<Record<HookName, HookSetting>>>;
  /** Postgres-function hooks, each run in a transaction of its own. */
  readonly functions: HookFunctions;
  /** A user as the payload carries it: the API's user body. */
  readonly presentUser: (user: User) => unknown;
  readonly postgresTimeoutMs?: number;
  /** Limits of HTTP hooks (tests shorten them); the reference's by default. */
  readonly http?: Omit<HttpHookOptions, "url" | "secrets">;
  readonly onRun?: (run: HookRun) => void;
}

type Runner = (payload: Record<string, unknown>) => Promise<Result<unknown>>;

/**
 * The `HookDispatcher` over the configured hooks: builds each payload (the hook's input, its `user`
 * as the API presents it, and `metadata: {uuid, time, name}`), runs it on its target, and checks
 * the answer: an error object is the hook's refusal; anything but an object is unusable (500).
 * A Postgres function that fails (or times out, or is not there) is thrown as the reference's 500
 * naming the hook's URI, and reported with the database's message and SQLSTATE; a database outage
 * passes through unchanged.
 */
export function hookDispatcher(options: HookDispatcherOptions): HookDispatcher {
  const runners = new Map<HookName, { target: HookTarget; run: Runner; uri: string }>();
  for (const [name, setting] of Object.entries(options.hooks) as [HookName, HookSetting][]) {
    const target = parseHookUri(setting.uri);
    if ("problem" in target) throw new Error(`hook ${name}: ${target.problem}`);
    runners.set(name, { target, uri: setting.uri, run: runnerOf(target, setting, options) });
  }
  return {
    enabled: (name) => runners.has(name),
    overHttp: (name) => runners.get(name)?.target.kind === "http",
    async run(name, input) {
      const runner = runners.get(name);
      if (runner === undefined) throw new Error(`hook ${name} is not enabled`);
      const { user, ...rest } = input as { user?: User } & Record<string, unknown>;
      const payload = {
        metadata: { uuid: randomUUID(), time: new Date().toISOString(), name: HOOK_PAYLOAD_NAMES[name] },
        ...(user !== undefined ? { user: options.presentUser(user) } : {}),
        ...rest,
      };
      const started = performance.now();
      const report = (success: boolean, error?: string, dbCode?: string) =>
        options.onRun?.({
          hook: name,
          uri: runner.uri,
          success,
          durationMs: performance.now() - started,
          ...(error ? { error } : {}),
          ...(dbCode ? { dbCode } : {}),
        });
      let answer: Result<unknown>;
      try {
        answer = await runner.run(payload);
      } catch (thrown) {
        if (thrown instanceof FunctionFailed) {
          report(false, thrown.message, thrown.code);
          throw thrown.answer;
        }
        report(false, (thrown as Error).message);
        throw thrown;
      }
      if (!answer.ok) {
        report(false, answer.error.message);
        return answer;
      }
      const value = answer.value ?? {};
      if (typeof value !== "object" || Array.isArray(value)) {
        report(false, "answer is not a JSON object");
        return { ok: false, error: failures.hookFailed("Error unmarshaling JSON output.") };
      }
      report(true);
      return { ok: true, value: value as Record<string, unknown> };
    },
  };
}

/** A Postgres function's failure: what the log hears (the database's message and code), what the client gets. */
class FunctionFailed extends Error {
  override readonly name = "FunctionFailed";
  constructor(
    message: string,
    readonly code: string,
    readonly answer: Error,
  ) {
    super(message);
  }
}

function runnerOf(target: HookTarget, setting: HookSetting, options: HookDispatcherOptions): Runner {
  if (target.kind === "http") {
    const post = httpHook({ ...options.http, url: target.url, secrets: setting.secrets });
    return (payload) => post(JSON.stringify(payload));
  }
  const timeoutMs = options.postgresTimeoutMs ?? POSTGRES_HOOK_TIMEOUT_MS;
  return async (payload) => {
    let answer: unknown;
    try {
      answer = await options.functions.call(target.schema, target.name, payload, timeoutMs);
    } catch (thrown) {
      // The function's own error (or its timeout, or a function that is not there): the operator's
      // code failed, not the database.
      const error = thrown as { name?: unknown; message?: unknown; code?: unknown };
      if (error.name === "PostgresError") {
        const answer = failures.hookFailed(`Error running hook URI: ${setting.uri}`);
        throw new FunctionFailed(String(error.message), String(error.code), answer);
      }
      throw thrown;
    }
    const refusal = hookAnswerFailure(answer);
    return refusal ? { ok: false, error: refusal } : { ok: true, value: answer };
  };
}
