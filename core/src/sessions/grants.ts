import type { Result } from "../kernel/index.js";

/**
 * A grant type of `POST /token` (`grant_type=<type>`): the use case that turns the grant's input into
 * a session. The slice that owns the use case defines its grant beside it (`defineGrant`); the app
 * gathers the grants in a `grantRegistry` and looks the requested one up.
 */
export interface Grant<D, I, O> {
  /** The `grant_type` value a client sends. */
  readonly type: string;
  /** The use case, as the slice exports it. */
  readonly run: (deps: D, input: I) => Promise<Result<O>>;
}

/** A name (`password`), or an extension's absolute URI as RFC 6749 §4.5 allows (RFC 8628's URN). */
const GRANT_TYPE = /^(?:[a-z][a-z0-9_]*|urn:[a-z0-9][a-z0-9-]*(?::[A-Za-z0-9._-]+)+)$/;

/** Defines the grant `type`, run by `run`. A name that is not a grant type name is a programming error. */
export function defineGrant<D, I, O>(
  type: string,
  run: (deps: D, input: I) => Promise<Result<O>>,
): Grant<D, I, O> {
  if (!GRANT_TYPE.test(type)) throw new Error(`defineGrant: "${type}" is not a grant type name`);
  return { type, run };
}

/** The grant types by name, each registered once. */
export interface GrantRegistry<G extends { readonly type: string }> {
  /** The grant registered as `type`; `undefined` for any other value (unsupported, or absent). */
  lookup(type: string | undefined): G | undefined;
  /** The registered names, in registration order. */
  readonly types: readonly string[];
}

/**
 * A registry of `grants`. Two grants of one name would leave one of them unreachable, so that is
 * refused when the registry is built rather than discovered at request time.
 */
export function grantRegistry<G extends { readonly type: string }>(grants: readonly G[]): GrantRegistry<G> {
  // A Map, not an object: a client's `grant_type=constructor` must not find a prototype member.
  const byType = new Map<string, G>();
  for (const grant of grants) {
    if (byType.has(grant.type)) throw new Error(`grantRegistry: grant type "${grant.type}" registered twice`);
    byType.set(grant.type, grant);
  }
  return {
    lookup: (type) => (type === undefined ? undefined : byType.get(type)),
    types: [...byType.keys()],
  };
}
