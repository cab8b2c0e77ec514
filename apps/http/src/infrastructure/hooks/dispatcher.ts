import {
  hookDispatcher,
  hookFunctionProblem,
  hookMailer,
  hookSmsSender,
  parseHookUri,
  type Sql,
} from "@authsvc/adapters";
import type { AuthDeps, Repositories, Store } from "@authsvc/core";
import { type HookDispatcher, type HookName, withAfterUserCreated } from "@authsvc/core/hooks";
import type { Mailer, SmsSender } from "@authsvc/core/messaging";
import type { Logger } from "pino";
import type { Config } from "../../config/types.js";
import { userJson } from "../../http/presenters/user-json.js";
import { hookVariables } from "./section.js";

/**
 * The auth hooks configured (`HOOK_*`): Postgres-function hooks run on `store` (in the caller's
 * transaction when it passes one), HTTP hooks through undici. Each run is logged as the reference
 * logs it (`action: run_hook`, the hook, success, duration).
 */
export function hooksOf(config: Config, store: Store, logger: Logger): HookDispatcher {
  return hookDispatcher({
    hooks: config.hooks,
    functions: store.hookFunctions,
    presentUser: userJson,
    onRun: (run) => {
      const fields = {
        action: "run_hook",
        hook: run.hook,
        success: run.success,
        duration_ms: Math.round(run.durationMs * 1000) / 1000,
        ...(run.error ? { error: run.error } : {}),
        ...(run.dbCode ? { db_code: run.dbCode } : {}),
      };
      if (run.success) logger.info(fields, "hook ran");
      else logger.warn(fields, "hook failed");
    },
  });
}

/**
 * Checks, at start, that each enabled Postgres-function hook can be called as it will be (the function
 * exists with one `jsonb` argument, returns JSON, and the role may execute it), and logs an error naming
 * the variable for each that cannot. The server starts all the same, as the reference's does: the
 * function may come with the application's migrations, run after authsvc's; until it is there each
 * call answers the hook error. HTTP hook URIs were checked with the configuration (a malformed one
 * refuses the start).
 */
export async function checkHookTargets(config: Config, sql: Sql, logger: Logger): Promise<void> {
  for (const [hook, setting] of Object.entries(config.hooks) as [HookName, { uri: string }][]) {
    const target = parseHookUri(setting.uri);
    if (!("kind" in target) || target.kind !== "postgres") continue;
    const variable = hookVariables[hook].uri.name;
    try {
      const problem = await hookFunctionProblem(sql, target.schema, target.name);
      if (problem !== null) logger.error({ variable, hook, problem }, "hook target cannot be called");
    } catch (thrown) {
      logger.warn({ variable, hook, err: thrown }, "hook target could not be checked");
    }
  }
}

/** The send-email hook in place of `mailer` when it is enabled. */
export function mailerWithHooks(config: Config, hooks: HookDispatcher, mailer: Mailer): Mailer {
  return hooks.enabled("send_email") ? hookMailer({ hooks, siteUrl: config.siteUrl }) : mailer;
}

/** The send-SMS hook in place of the gateway when it is enabled. */
export function smsWithHooks(hooks: HookDispatcher, sms: SmsSender): SmsSender {
  return hooks.enabled("send_sms") ? hookSmsSender({ hooks }) : sms;
}

/** The ports with the after-user-created hook behind the store, when that hook is enabled. */
export function announcingCreatedUsers(auth: AuthDeps): AuthDeps {
  return { ...auth, store: withAfterUserCreated<Repositories, Store>(auth.store, auth.hooks) };
}
