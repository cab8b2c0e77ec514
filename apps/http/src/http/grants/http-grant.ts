import type { AuthDeps } from "@authsvc/core";
import type { DpopBinding } from "@authsvc/core/dpop";
import type { Result } from "@authsvc/core/kernel";
import type { OAuthClient, OAuthTokens, TokenRequestBinding } from "@authsvc/core/oauth-server";
import { type Grant, type GrantRegistry, grantRegistry } from "@authsvc/core/sessions";
import type { Context } from "hono";
import type { GenericSchema } from "valibot";
import type { AppEnv } from "../app-env.js";

/** The two endpoints that exchange a grant for tokens. */
export type GrantEndpoint = "/token" | "/oauth/token";

/** How `POST /token` speaks a grant type: GoTrue's JSON body in, GoTrue's answers out. */
export interface TokenOffer {
  /** Reads the grant's fields from the JSON body, runs its use case and answers the outcome. */
  readonly handle: (c: Context<AppEnv>, json: Record<string, unknown>) => Promise<Response>;
  /** The body it reads, for the OpenAPI description of `POST /token`. */
  readonly body?: GenericSchema;
}

/**
 * How `POST /oauth/token` speaks a grant type: the form fields, the authenticated client and the
 * request's DPoP binding (chosen by the route before the grant runs) in, the tokens out; the route
 * answers them (and any failure) as RFC 6749 §5.1/§5.2 say.
 */
export interface OAuthTokenOffer {
  readonly run: (
    c: Context<AppEnv>,
    form: Record<string, string>,
    client: OAuthClient,
    binding: DpopBinding | null,
  ) => Promise<Result<OAuthTokens>>;
}

interface Offers {
  readonly "/token": TokenOffer;
  readonly "/oauth/token": OAuthTokenOffer;
}

/** A grant type as one endpoint offers it. */
export type OfferedGrant<E extends GrantEndpoint> = { readonly type: string } & Offers[E];

/**
 * One grant type over HTTP: the endpoints that offer it and how it speaks at each. One file per grant
 * type in the folder of the module that owns it (modules/), named in its `grants`; an endpoint looks
 * the requested `grant_type` up among the grants that offer it, so a grant type offered elsewhere
 * only is as unknown there as any other.
 */
export interface HttpGrant {
  readonly type: string;
  readonly offeredAt: { readonly [E in GrantEndpoint]?: Offers[E] };
}

/** How `POST /token` reads a grant's input and answers: `run` is its use case bound to the request's ports. */
export interface TokenSpeech<I, O> {
  readonly handle: (
    c: Context<AppEnv>,
    json: Record<string, unknown>,
    run: (input: I) => Promise<Result<O>>,
  ) => Promise<Response>;
  readonly body?: GenericSchema;
}

/**
 * How `POST /oauth/token` reads a grant's input from the form and the authenticated client: all of it
 * but the DPoP binding, which the route hands every grant (`TokenRequestBinding`).
 */
export interface OAuthTokenSpeech<I> {
  readonly read: (form: Record<string, string>, client: OAuthClient) => Omit<I, keyof TokenRequestBinding>;
}

/** The HTTP side of `grant`, at each endpoint named in `at`. */
export function httpGrant<I, O>(
  grant: Grant<AuthDeps, I, O>,
  at: {
    readonly "/token"?: TokenSpeech<I, O>;
    // A grant of `POST /oauth/token` takes the request's DPoP binding: one that could not bind its
    // tokens does not type-check here.
    readonly "/oauth/token"?: O extends OAuthTokens
      ? I extends TokenRequestBinding
        ? OAuthTokenSpeech<I>
        : never
      : never;
  },
): HttpGrant {
  const token = at["/token"];
  const oauthToken = at["/oauth/token"] as OAuthTokenSpeech<I> | undefined;
  return {
    type: grant.type,
    offeredAt: {
      ...(token && {
        "/token": {
          ...(token.body ? { body: token.body } : {}),
          handle: (c, json) => token.handle(c, json, (input) => grant.run(c.get("deps"), input)),
        },
      }),
      ...(oauthToken && {
        "/oauth/token": {
          run: (c, form, client, binding) =>
            grant.run(c.get("deps"), { ...oauthToken.read(form, client), dpop: binding } as I) as Promise<
              Result<OAuthTokens>
            >,
        },
      }),
    },
  };
}

/** The grant types of both endpoints, each endpoint's registered once there. */
export interface HttpGrantRegistry {
  /** The grant types `endpoint` offers; any other `grant_type` is unknown there. */
  at<E extends GrantEndpoint>(endpoint: E): GrantRegistry<OfferedGrant<E>>;
}

/** The grants of `grants` that `endpoint` offers, as it speaks them, in the order given. */
export function offeredAt<E extends GrantEndpoint>(
  grants: readonly HttpGrant[],
  endpoint: E,
): OfferedGrant<E>[] {
  return grants.flatMap((grant) => {
    const offer = grant.offeredAt[endpoint] as Offers[E] | undefined;
    return offer ? [{ ...offer, type: grant.type }] : [];
  });
}

/**
 * The registry of `grants` (every module's `grants`). A grant type may be offered by two grants at
 * two endpoints (`refresh_token`: a first-party session's at `/token`, a client's at `/oauth/token`),
 * never twice at one: that is refused when the registry is built.
 */
export function httpGrantRegistry(grants: readonly HttpGrant[]): HttpGrantRegistry {
  const registries = {
    "/token": grantRegistry(offeredAt(grants, "/token")),
    "/oauth/token": grantRegistry(offeredAt(grants, "/oauth/token")),
  };
  return { at: (endpoint) => registries[endpoint] as never };
}
