import { failures } from "../failures.js";
import {
  err,
  globMatch,
  isLoopbackHost,
  isUuid,
  ok,
  parseAbsoluteUrl,
  type Result,
} from "../kernel/index.js";
import {
  ADMIN_GRANT_TYPES,
  type ClientJwks,
  isHttpUrl,
  OAUTH_GRANT_TYPES,
  type OAuthClient,
  type OAuthGrantType,
  redirectUriProblem,
} from "./client.js";
import { checkJwks, checkJwksUri, checkKeys } from "./client-keys.js";
import type { OAuthServerDeps } from "./deps.js";
import type { ClientMetadataDocumentSettings } from "./settings.js";

/**
 * OAuth Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document), the MCP
 * authorization specification's preferred registration: a client's `client_id` is an https URL, and
 * the JSON that URL answers is its metadata. Nobody registers it; whoever controls the URL's host
 * controls its redirect URIs, so the document is believed only about itself (its `client_id` must be
 * the URL exactly) and is held to the rules of a registered client's metadata.
 */

type Deps = Pick<OAuthServerDeps, "store" | "clock" | "random" | "settings" | "clientDocuments">;

const refused = (problem: string) => err(failures.clientDocumentRefused(problem));

/** Whether `clientId` is meant as a client metadata document's URL (and not a registered client's UUID). */
export const isClientIdUrl = (clientId: string): boolean => /^https?:\/\//i.test(clientId);

/**
 * Why `url` cannot be a `client_id`, or null when it can (the draft's §3): https (http on the loopback
 * only with the test switch), a host the allow-list names, a path other than `/`, no fragment, no
 * userinfo, no dot segments; read by the kernel's strict parser, so that the host checked is the host
 * fetched.
 */
export function clientIdUrlProblem(url: string, settings: ClientMetadataDocumentSettings): string | null {
  if (url.length > 2048) return "client_id URL is longer than 2048 characters";
  if (url.includes("#")) return "client_id URL must not contain a fragment";
  const parsed = parseAbsoluteUrl(url);
  if (parsed === null)
    return "client_id URL must read the same to every parser: no userinfo, dot segments, control characters, encoded or numeric host";
  const loopback = settings.allowLoopbackForTests && isLoopbackHost(parsed.host);
  if (parsed.scheme !== "https" && !(parsed.scheme === "http" && loopback))
    return "client_id URL must use https";
  const path = parsed.rest.split("?")[0] ?? "";
  if (path === "/" || path === "") return "client_id URL must have a path";
  if (!url.startsWith(`${parsed.scheme}://${parsed.authority}/`))
    return "client_id URL must be written in its normal form (lowercase host, no default port)";
  const hosts = settings.allowedHosts;
  if (hosts.length > 0 && !hosts.some((pattern) => globMatch(pattern, parsed.host)))
    return `host ${parsed.host} is not allowed`;
  return null;
}

const LIMITS = { redirectUris: 10, uri: 2048, name: 1024 } as const;

/**
 * What a document's client may use: never `client_credentials` (tokens with no user's consent, for
 * whoever hosts a document) nor what only an admin gives (token exchange).
 */
const DOCUMENT_GRANT_TYPES = OAUTH_GRANT_TYPES.filter(
  (type) => type !== "client_credentials" && !ADMIN_GRANT_TYPES.includes(type),
);

/**
 * The document's authentication: `none` (a public client), or `private_key_jwt` with its public keys
 * in `jwks` or at `jwks_uri` (fetched through the guarded fetch when an assertion is checked): a
 * document is public, so no shared secret can be in it, but a public key can.
 */
function documentKeys(
  doc: Record<string, unknown>,
): Result<{ method: "none" | "private_key_jwt"; jwks: ClientJwks | null; jwksUri: string | null }> {
  const method = doc.token_endpoint_auth_method ?? "none";
  if (method !== "none" && method !== "private_key_jwt")
    return refused(
      `token_endpoint_auth_method '${String(method)}' is not supported: only 'none' or 'private_key_jwt'`,
    );
  const jwksUriField = doc.jwks_uri;
  if (jwksUriField !== undefined && jwksUriField !== null && typeof jwksUriField !== "string")
    return refused("jwks_uri must be a string");
  const jwks = checkJwks(doc.jwks);
  if (!jwks.ok) return refused(jwks.error.message);
  const jwksUri = checkJwksUri(jwksUriField);
  if (!jwksUri.ok) return refused(jwksUri.error.message);
  const keys = checkKeys(method, jwks.value, jwksUri.value);
  if (!keys.ok) return refused(keys.error.message);
  return ok({ method, jwks: jwks.value, jwksUri: jwksUri.value });
}

function optionalText(
  doc: Record<string, unknown>,
  field: string,
  max: number,
  url: boolean,
): Result<string | null> {
  const value = doc[field];
  if (value === undefined || value === null || value === "") return ok(null);
  if (typeof value !== "string") return refused(`${field} must be a string`);
  if (value.length > max) return refused(`${field} must be at most ${max} characters`);
  if (url && !isHttpUrl(value, max)) return refused(`${field} must be an absolute http(s) URL`);
  return ok(value);
}

/**
 * The client the document at `url` describes, checked as a registration is (`redirectUriProblem`, the
 * same bounds, the same key rules) plus the draft's rules: `client_id` equal to the URL, no secret;
 * a public client (`none`) or one that signs its assertions (`private_key_jwt`, see documentKeys).
 */
export function clientFromDocument(
  url: string,
  document: unknown,
  base: { readonly id: string; readonly now: Date; readonly expiresAt: Date; readonly createdAt?: Date },
): Result<OAuthClient> {
  if (typeof document !== "object" || document === null || Array.isArray(document))
    return refused("the document must be a JSON object");
  const doc = document as Record<string, unknown>;
  if (doc.client_id !== url) return refused("its client_id must be the document's URL exactly");
  if (doc.client_secret !== undefined || doc.client_secret_expires_at !== undefined)
    return refused("a client metadata document must not hold a client_secret");
  const keys = documentKeys(doc);
  if (!keys.ok) return keys;
  const uris = doc.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) return refused("redirect_uris is required");
  if (uris.length > LIMITS.redirectUris) return refused("redirect_uris must not hold more than 10 URIs");
  for (const uri of uris) {
    if (typeof uri !== "string") return refused("redirect_uris must be strings");
    if (uri.length > LIMITS.uri) return refused("redirect URI is too long");
    const problem = redirectUriProblem(uri);
    if (problem !== null) return refused(`invalid redirect_uri '${uri}': ${problem}`);
  }
  let grantTypes: readonly OAuthGrantType[] = DOCUMENT_GRANT_TYPES;
  if (doc.grant_types !== undefined) {
    if (!Array.isArray(doc.grant_types) || doc.grant_types.some((t) => typeof t !== "string"))
      return refused("grant_types must be an array of strings");
    // Grant types this server has no use for in a public client are left out, not refused.
    grantTypes = DOCUMENT_GRANT_TYPES.filter((type) => (doc.grant_types as string[]).includes(type));
  }
  const name = optionalText(doc, "client_name", LIMITS.name, false);
  if (!name.ok) return name;
  const uri = optionalText(doc, "client_uri", LIMITS.uri, true);
  if (!uri.ok) return uri;
  const logoUri = optionalText(doc, "logo_uri", LIMITS.uri, true);
  if (!logoUri.ok) return logoUri;
  return ok({
    id: base.id,
    secretHash: null,
    registrationType: "dynamic",
    clientType: keys.value.method === "none" ? "public" : "confidential",
    authMethod: keys.value.method,
    jwks: keys.value.jwks,
    jwksUri: keys.value.jwksUri,
    redirectUris: [...new Set(uris as string[])],
    grantTypes,
    name: name.value,
    uri: uri.value,
    logoUri: logoUri.value,
    createdAt: base.createdAt ?? base.now,
    updatedAt: base.now,
    metadataUrl: url,
    metadataExpiresAt: base.expiresAt,
  });
}

/** How long a document is kept: its `max-age` within the configured floor and ceiling. */
export function cacheSeconds(maxAge: number | null, settings: ClientMetadataDocumentSettings): number {
  const wanted = maxAge ?? settings.minCacheSeconds;
  return Math.min(settings.maxCacheSeconds, Math.max(settings.minCacheSeconds, wanted));
}

/**
 * The client a `client_id` names, wherever one is looked up (`/oauth/authorize`, the token endpoint,
 * revocation, introspection): a registered client by its UUID, or — with client metadata documents
 * on — the client whose URL it is, from the stored copy of its document while fresh, else fetched
 * again (and stored for every instance). `ok(null)`: no such client. A URL the rules refuse, or a
 * document that cannot be fetched or is invalid, is `invalid_client` with the reason: a stale copy is
 * not used past its time, since the document's host may have withdrawn a redirect URI.
 *
 * Only `/oauth/authorize` (`firstUse`), counted per client address, stores a client not seen before:
 * elsewhere a URL never seen has nothing to exchange or revoke, so it is no client, and nobody makes
 * the server fetch and store documents through an endpoint that is not counted.
 */
export async function resolveClient(
  deps: Deps,
  clientId: string,
  options: { readonly firstUse?: boolean } = {},
): Promise<Result<OAuthClient | null>> {
  if (isUuid(clientId)) return ok(await deps.store.oauthClients.find(clientId));
  const settings = deps.settings.oauthServer.clientMetadataDocuments;
  if (!isClientIdUrl(clientId) || !settings?.enabled || deps.clientDocuments === undefined) return ok(null);
  const problem = clientIdUrlProblem(clientId, settings);
  if (problem !== null) return refused(problem);
  const stored = await deps.store.oauthClients.findByMetadataUrl(clientId);
  if (stored === null && options.firstUse !== true) return ok(null);
  const now = deps.clock.now();
  if (stored?.metadataExpiresAt && stored.metadataExpiresAt.getTime() > now.getTime()) return ok(stored);
  const fetched = await deps.clientDocuments.fetch(clientId);
  if (!fetched.ok) return err(failures.clientDocumentUnavailable(fetched.problem));
  const seconds = cacheSeconds(fetched.maxAgeSeconds, settings);
  const client = clientFromDocument(clientId, fetched.document, {
    id: stored?.id ?? deps.random.uuid(),
    now,
    expiresAt: new Date(now.getTime() + seconds * 1000),
    ...(stored ? { createdAt: stored.createdAt } : {}),
  });
  if (!client.ok) return client;
  return ok(await deps.store.oauthClients.saveMetadataClient(client.value));
}
