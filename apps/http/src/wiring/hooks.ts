import { hookDispatcher, hookMailer, hookSmsSender } from "@authsvc/adapters";
import type { HookDispatcher, Mailer, SmsSender, Store } from "@authsvc/core";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import { userJson } from "../http/presenters/user-json.js";

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
      };
      if (run.success) logger.info(fields, "hook ran");
      else logger.warn(fields, "hook failed");
    },
  });
}

/** The send-email hook in place of `mailer` when it is enabled. */
export function mailerWithHooks(config: Config, hooks: HookDispatcher, mailer: Mailer): Mailer {
  return hooks.enabled("send_email") ? hookMailer({ hooks, siteUrl: config.siteUrl }) : mailer;
}

/** The send-SMS hook in place of the gateway when it is enabled. */
export function smsWithHooks(hooks: HookDispatcher, sms: SmsSender): SmsSender {
  return hooks.enabled("send_sms") ? hookSmsSender({ hooks }) : sms;
}
