import type { AuthDeps, Grant, Result } from "@authsvc/core";
import type { Context } from "hono";
import type { GenericSchema } from "valibot";
import type { AppEnv } from "../../http/app-env.js";

/**
 * How `POST /token` speaks one grant type: it reads the grant's fields from the JSON body, runs the
 * grant's use case and answers its outcome. One file per grant type in this folder, named in the
 * `grants` of the module that owns it (modules/); the route looks the requested `grant_type` up among
 * every module's.
 */
export interface HttpGrant {
  readonly type: string;
  readonly handle: (c: Context<AppEnv>, json: Record<string, unknown>) => Promise<Response>;
  /** The body it reads, for the OpenAPI description of `POST /token`. */
  readonly body?: GenericSchema;
}

/** The HTTP side of `grant`: `handle` gets the grant's use case bound to the request's ports. */
export function httpGrant<I, O>(
  grant: Grant<AuthDeps, I, O>,
  handle: (
    c: Context<AppEnv>,
    json: Record<string, unknown>,
    run: (input: I) => Promise<Result<O>>,
  ) => Promise<Response>,
  body?: GenericSchema,
): HttpGrant {
  return {
    type: grant.type,
    ...(body ? { body } : {}),
    handle: (c, json) => handle(c, json, (input) => grant.run(c.get("deps"), input)),
  };
}
