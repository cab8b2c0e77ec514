import type { AuthDeps } from "@authsvc/core";
import type { Context, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../app-env.js";
import { clientAddress } from "../client-address.js";
import { httpFailures } from "../http-failures.js";
import { mailerInLocales, requestLocales } from "../request-locales.js";
import { asideOf } from "./admission.js";
import { asidePorts } from "./aside-ports.js";
import { RequestDeadline } from "./deadline.js";
import { storeBinder } from "./store-binding.js";

export { DeadlinePassedError, RequestDeadline } from "./deadline.js";

/** Whether the request of `c` has already been answered 504 (false outside the flow-control middleware). */
export const requestTimedOut = (c: Context<AppEnv>): boolean => c.get("deadline")?.expired ?? false;

const timedOut = () =>
  new HTTPException(504, {
    cause: httpFailures.requestTimeout(),
  });

/**
 * Answers `504 request_timeout` when a request runs longer than `ms` — but only while it has committed
 * nothing: its later commits then roll back and the mail it queued is dropped, so a 504 leaves nothing
 * behind. A request whose commit has begun is waited for, so a success is never answered 504. Where
 * the commits are is the store's to declare (`storeTraits`); while the request waits outside the
 * process (`depsTraits`), its admission slot goes to another.
 *
 * The request's handlers reach `auth` bound to its deadline as `c.get("deps")`. Passed along rather than
 * found through AsyncLocalStorage: that turns on a promise hook for every promise of the process, which
 * cost about a fifth of the CPU of a GET /user.
 */
export const requestDeadline = (ms: number, auth: AuthDeps): MiddlewareHandler<AppEnv> => {
  const bindStore = storeBinder(auth.store);
  const aside = asidePorts(auth);
  return async (c, next) => {
    const deadline = new RequestDeadline();
    c.set("deadline", deadline);
    // A view, not a copy: ports replaced on `auth` later (tests swap providers, mailers) still count.
    const deps: { -readonly [K in keyof AuthDeps]: AuthDeps[K] } = Object.create(auth);
    deps.store = bindStore(deadline, () => clientAddress(c));
    deps.deliveries = { enqueue: (job) => deadline.hold(job, auth.deliveries) };
    // The request's languages go with the mail it sends, also after the answer (docs/mail-templates.md).
    const locales = requestLocales(c.req.query("locale"), c.req.header("accept-language"));
    if (locales.length > 0) deps.mailer = mailerInLocales(auth, locales);
    const slot = asideOf(c);
    if (slot) aside.apply(deps, slot);
    c.set("deps", deps);
    // Once answered the request holds no slot: what runs on (its deliveries, a handler past a 504)
    // uses the plain ports.
    const unadmit = () => {
      if (slot) aside.restore(deps);
    };
    const work = next();
    let timer: NodeJS.Timeout | undefined;
    const timer$ = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), ms);
    });
    try {
      const first = await Promise.race([work.then(() => "done" as const), timer$]);
      if (first === "timeout" && deadline.expire()) {
        // The handler runs on; anything it still tries to commit is refused and rolled back.
        work.catch(() => {});
        throw timedOut();
      }
      await work;
      unadmit();
      await deadline.release(auth.deliveries);
    } finally {
      unadmit();
      clearTimeout(timer);
    }
  };
};
