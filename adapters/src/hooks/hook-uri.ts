/** Where a hook runs: a Postgres function, or an HTTP endpoint. */
export type HookTarget =
  | { readonly kind: "postgres"; readonly schema: string; readonly name: string }
  | { readonly kind: "http"; readonly url: string };

// The reference's `postgresNamesRegexp`: a plain, unquoted Postgres identifier.
const POSTGRES_NAME = /^[a-zA-Z_][a-zA-Z0-9_]{0,62}$/;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1", "host.docker.internal"]);

/**
 * Reads a hook URI as the reference does (`ValidateExtensibilityPoint`): `pg-functions://<any
 * host>/<schema>/<function>`, `https://…`, or `http://…` to a loopback host only (so that a hook
 * payload, which holds codes and user data, never crosses a network in clear). Resolves the target
 * or why the URI is refused.
 */
export function parseHookUri(uri: string): HookTarget | { readonly problem: string } {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { problem: "expected a pg-functions://, https:// or http:// (loopback) URI" };
  }
  switch (url.protocol.toLowerCase()) {
    case "pg-functions:": {
      const [, schema, name] = url.pathname.split("/");
      if (schema === undefined || name === undefined || schema === "" || name === "") {
        return { problem: "expected pg-functions://postgres/<schema>/<function>" };
      }
      if (!POSTGRES_NAME.test(schema)) return { problem: `invalid schema name: ${schema}` };
      if (!POSTGRES_NAME.test(name)) return { problem: `invalid function name: ${name}` };
      return { kind: "postgres", schema, name };
    }
    case "http:":
      if (!LOOPBACK_HOSTS.has(url.hostname)) {
        return {
          problem:
            "http:// is allowed to localhost, 127.0.0.1, ::1 and host.docker.internal only; use https://",
        };
      }
      return { kind: "http", url: url.href };
    case "https:":
      return { kind: "http", url: url.href };
    default:
      return { problem: "only pg-functions://, https:// and http:// (loopback) hooks are supported" };
  }
}

// Standard Webhooks symmetric secrets as the reference accepts them: `v1,whsec_<base64>`; the
// asymmetric `v1a,whpk_…:whsk_…` form is accepted there but cannot sign, so it is refused here.
const SYMMETRIC_SECRET = /^v1,whsec_[A-Za-z0-9+/=]{32,88}$/;

/** `HOOK_<NAME>_SECRETS`: secrets separated by `|`; each must be `v1,whsec_<base64>`. */
export function parseHookSecrets(text: string): readonly string[] | { readonly problem: string } {
  const secrets = text
    .split("|")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (secrets.some((s) => !SYMMETRIC_SECRET.test(s))) {
    return { problem: "expected secrets v1,whsec_<base64> separated by vertical bars" };
  }
  return secrets;
}
