import { failures } from "../failures.js";
import { err, globMatch, ok, type Result } from "../kernel/index.js";
import { OAUTH_SCOPES, type OAuthScope, scopesOf } from "./authorization.js";
import type { OAuthServerDeps } from "./deps.js";

export type { OAuthScope } from "./authorization.js";

const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]{1,128}$/;
const MAX_DESCRIPTION = 1024;
const MAX_RESOURCE = 2048;

/**
 * Why `resource` cannot be a resource indicator (RFC 8707 §2: an absolute URI without a fragment; no
 * query, as the MCP authorization specification's canonical form), or null.
 */
export function resourceProblem(resource: string): string | null {
  if (resource.length > MAX_RESOURCE || !/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s]+$/.test(resource))
    return "resource must be an absolute URI";
  if (resource.includes("#")) return "resource must not contain a fragment";
  if (resource.includes("?")) return "resource must not contain a query";
  return null;
}

/**
 * Whether the server issues tokens for `resource`: any, unless `OAUTH_SERVER_ALLOWED_RESOURCES` names
 * some. Anyone may register a client and name any resource; the list keeps tokens to the servers the
 * operator runs.
 */
export function resourceAllowed(deps: Pick<OAuthServerDeps, "settings">, resource: string): boolean {
  const allowed = deps.settings.oauthServer.allowedResources;
  return allowed.length === 0 || allowed.some((pattern) => globMatch(pattern, resource));
}

/** The scopes the server knows: OpenID Connect's and the custom ones, each with its resource (or none). */
export interface KnownScopes {
  readonly builtIn: readonly string[];
  readonly custom: ReadonlyMap<string, OAuthScope>;
}

/** The custom scopes among `names` (the built-in ones need no lookup). */
export async function knownScopes(
  deps: { readonly store: Pick<OAuthServerDeps["store"], "oauthScopes"> },
  names: readonly string[],
): Promise<KnownScopes> {
  const builtIn = OAUTH_SCOPES as readonly string[];
  const wanted = names.filter((name) => !builtIn.includes(name) && SCOPE_TOKEN.test(name));
  const found = wanted.length === 0 ? [] : await deps.store.oauthScopes.find(wanted);
  return { builtIn, custom: new Map(found.map((s) => [s.scope, s])) };
}

/**
 * Why `scopes` cannot be granted for `resource`, or null: each must be a built-in or custom scope, a
 * custom one bound to a resource only for that very resource, and (when the client has a list) among
 * the client's allowed scopes.
 */
export function scopeProblem(
  known: KnownScopes,
  scopes: readonly string[],
  resource: string | null,
  allowed: string | null | undefined,
): string | null {
  const allowedList = allowed == null ? null : scopesOf(allowed);
  for (const scope of scopes) {
    const custom = known.custom.get(scope);
    if (!known.builtIn.includes(scope) && custom === undefined) return `unsupported scope: ${scope}`;
    if (custom?.resource && custom.resource !== resource)
      return `scope ${scope} is granted only for the resource ${custom.resource}`;
    if (allowedList !== null && !allowedList.includes(scope))
      return `scope ${scope} is not allowed for this client`;
  }
  return null;
}

const invalid = (problem: string) => err(failures.scopeFieldInvalid(problem));

/** `POST /admin/oauth/scopes`: defines a custom scope; its name is unique (409 when taken). */
export async function defineScope(
  deps: Pick<OAuthServerDeps, "store" | "clock" | "settings">,
  input: {
    readonly scope?: string | undefined;
    readonly resource?: string | undefined;
    readonly description?: string | undefined;
  },
): Promise<Result<OAuthScope>> {
  const { scope = "", resource, description = "" } = input;
  if (!SCOPE_TOKEN.test(scope))
    return invalid("scope must be 1 to 128 printable ASCII characters, without space, '\"' or '\\'");
  if ((OAUTH_SCOPES as readonly string[]).includes(scope))
    return invalid(`scope ${scope} is one of OpenID Connect's`);
  if (description.trim() === "") return invalid("description is required");
  if (description.length > MAX_DESCRIPTION)
    return invalid(`description must be at most ${MAX_DESCRIPTION} characters`);
  if (resource) {
    const problem = resourceProblem(resource);
    if (problem !== null) return invalid(problem);
    if (!resourceAllowed(deps, resource))
      return invalid("resource is not among OAUTH_SERVER_ALLOWED_RESOURCES");
  }
  const defined: OAuthScope = {
    scope,
    resource: resource || null,
    description,
    createdAt: deps.clock.now(),
  };
  if (!(await deps.store.oauthScopes.insert(defined))) return err(failures.scopeExists());
  return ok(defined);
}

/** `GET /admin/oauth/scopes`: the custom scopes, by name. */
export async function listScopes(deps: Pick<OAuthServerDeps, "store">): Promise<OAuthScope[]> {
  return deps.store.oauthScopes.list();
}

/**
 * `DELETE /admin/oauth/scopes/{scope}`: the scope can no longer be asked for. Tokens and consents
 * that carry it keep it (a token until it expires, a consent until revoked): delete a scope only
 * when its resource server no longer honours it.
 */
export async function deleteScope(
  deps: Pick<OAuthServerDeps, "store">,
  scope: string,
): Promise<Result<void>> {
  return (await deps.store.oauthScopes.delete(scope)) ? ok(undefined) : err(failures.scopeNotFound());
}
