import type { AuthDeps } from "@authsvc/core";
import {
  authenticate,
  authenticateAdmin,
  type BearerKind,
  type RequestAudience,
} from "@authsvc/core/sessions";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env.js";
import { unwrap } from "../body.js";

const BEARER = /^bearer (\S+)$/i;
const BEARER_OR_DPOP = /^(?:bearer|dpop) (\S+)$/i;

/**
 * The token of an `Authorization: Bearer <token>` header (the scheme in any case), or undefined when
 * the header is missing or has another shape — which core answers with 401 `no_authorization`.
 */
export function bearerToken(authorization: string | undefined, dpop = false): string | undefined {
  return authorization === undefined ? undefined : (dpop ? BEARER_OR_DPOP : BEARER).exec(authorization)?.[1];
}

/**
 * An authentication middleware, carrying what it accepts: the token kinds (docs/http-api.md, "Token
 * kinds") its route takes as bearer, and for `/admin/*` the admin roles. Declared once, where the
 * middleware is put on the route; `modules/oauth-server/token-kinds.test.ts` walks every route of the app and reads it.
 */
export type AuthMiddleware = MiddlewareHandler<AppEnv> & {
  readonly accepts: readonly BearerKind[];
  readonly admin: boolean;
};

const declared = (
  handler: MiddlewareHandler<AppEnv>,
  accepts: readonly BearerKind[],
  admin: boolean,
): AuthMiddleware => Object.assign(handler, { accepts, admin });

/**
 * Requires the access token of a signed-in user (`/user`, `/logout`, `/reauthenticate`, …), minted
 * for the request's audience: the `X-JWT-AUD` header, else `JWT_AUD`. `refusal` picks how a mismatch
 * is answered (the reference answers `GET /user` with 400 `validation_failed`). `accepts` lists the
 * token kinds the route takes: a first-party access token unless it says otherwise (an OAuth client's
 * at `/oauth/userinfo` alone); an ID token is never one of them.
 */
export const requireUser = (
  deps: AuthDeps,
  options: {
    refusal?: RequestAudience["refusal"];
    accepts?: readonly BearerKind[];
    /** The `DPoP` scheme (RFC 9449 §7.1) too: the route checks the proof and the binding itself. */
    dpop?: boolean;
  } = {},
): AuthMiddleware => {
  const accepts = options.accepts ?? ["user"];
  const { refusal } = options;
  return declared(
    async (c, next) => {
      const audience = {
        expected: c.req.header("x-jwt-aud") || deps.settings.jwt.aud,
        ...(refusal ? { refusal } : {}),
      };
      const bearer = bearerToken(c.req.header("authorization"), options.dpop === true);
      const auth = unwrap(await authenticate(deps, { bearerToken: bearer, audience, accepts }));
      c.set("auth", auth);
      await next();
    },
    accepts,
    false,
  );
};

/**
 * Requires an API key or a first-party user's token whose `role` is one of `JWT_ADMIN_ROLES`
 * (`/admin/*`, `/invite`): never an OAuth client's token, whatever its role, nor an ID token.
 */
export const requireAdmin = (deps: AuthDeps): AuthMiddleware =>
  declared(
    async (c, next) => {
      const token = bearerToken(c.req.header("authorization"));
      const { role } = unwrap(await authenticateAdmin(deps, { bearerToken: token }));
      c.set("adminRole", role);
      await next();
    },
    ["api_key", "user"],
    true,
  );
