import { failures } from "../failures.js";
import { err, isLoopbackHost, ok, parseAbsoluteUrl, type Result } from "../kernel/index.js";
import { redirectUriProblem } from "./client.js";

/** A client's logout metadata (OpenID Connect RP-Initiated Logout §3.1, Back-Channel Logout §2.2). */
export interface LogoutMetadata {
  /** Where `/oauth/logout` may send the browser afterwards: exact strings, at most 10. */
  readonly postLogoutRedirectUris: readonly string[];
  /** Where logout tokens are POSTed when a session of the client ends; null: never. */
  readonly backchannelLogoutUri: string | null;
  /** Whether the client wants `sid` in logout tokens (it always gets it). */
  readonly backchannelLogoutSessionRequired: boolean;
}

/** The logout fields of a registration or an update, as the client sent them. */
export interface LogoutFields {
  readonly postLogoutRedirectUris?: readonly string[] | undefined;
  /** "" or null clears it on an update. */
  readonly backchannelLogoutUri?: string | null | undefined;
  readonly backchannelLogoutSessionRequired?: boolean | undefined;
}

export const NO_LOGOUT_METADATA: LogoutMetadata = {
  postLogoutRedirectUris: [],
  backchannelLogoutUri: null,
  backchannelLogoutSessionRequired: false,
};

const invalid = (problem: string) => err(failures.clientFieldInvalid(problem));

/**
 * Why `uri` cannot be a `backchannel_logout_uri`, or null: an absolute https URL (http on the
 * loopback only), no fragment (Back-Channel Logout §2.2), at most 2,048 characters, read by the
 * kernel's strict parser. Whether its host may be reached is the guarded fetch's decision, at delivery.
 */
export function backchannelUriProblem(uri: string): string | null {
  if (uri.length > 2048) return "backchannel_logout_uri must be at most 2048 characters";
  if (uri.includes("#")) return "backchannel_logout_uri must not contain a fragment";
  const url = parseAbsoluteUrl(uri);
  if (url === null || (url.scheme !== "https" && url.scheme !== "http") || url.host === "")
    return "backchannel_logout_uri must be an absolute https URL";
  if (url.scheme === "http" && !isLoopbackHost(url.host))
    return "backchannel_logout_uri with scheme 'http' is only allowed for localhost";
  return null;
}

/**
 * The logout metadata of `fields` over `current` (a registration: none yet). Post-logout redirect URIs
 * follow the rules of redirect URIs (the browser is sent there as to a redirect URI).
 */
export function checkLogoutFields(
  fields: LogoutFields,
  current: LogoutMetadata = NO_LOGOUT_METADATA,
): Result<LogoutMetadata> {
  let { postLogoutRedirectUris, backchannelLogoutUri, backchannelLogoutSessionRequired } = current;
  if (fields.postLogoutRedirectUris !== undefined) {
    const uris = fields.postLogoutRedirectUris;
    if (uris.length > 10) return invalid("post_logout_redirect_uris must not hold more than 10 URIs");
    for (const uri of uris) {
      if (uri.length > 2048) return invalid("post_logout_redirect_uri is too long");
      const problem = redirectUriProblem(uri);
      if (problem !== null) return invalid(`invalid post_logout_redirect_uri '${uri}': ${problem}`);
    }
    postLogoutRedirectUris = [...new Set(uris)];
  }
  if (fields.backchannelLogoutUri !== undefined) {
    const uri = fields.backchannelLogoutUri;
    if (uri === null || uri === "") backchannelLogoutUri = null;
    else {
      const problem = backchannelUriProblem(uri);
      if (problem !== null) return invalid(problem);
      backchannelLogoutUri = uri;
    }
  }
  if (fields.backchannelLogoutSessionRequired !== undefined)
    backchannelLogoutSessionRequired = fields.backchannelLogoutSessionRequired;
  return ok({ postLogoutRedirectUris, backchannelLogoutUri, backchannelLogoutSessionRequired });
}

/** The client's logout metadata; a client stored without it has none. */
export const logoutMetadataOf = (client: Partial<LogoutMetadata>): LogoutMetadata => ({
  postLogoutRedirectUris: client.postLogoutRedirectUris ?? [],
  backchannelLogoutUri: client.backchannelLogoutUri ?? null,
  backchannelLogoutSessionRequired: client.backchannelLogoutSessionRequired ?? false,
});
