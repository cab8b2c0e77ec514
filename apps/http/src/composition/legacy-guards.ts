import type { Guarded } from "../http/middleware/endpoint-guards.js";
import type { HttpMethod, Operation } from "../http/operation.js";

const at = (method: HttpMethod, path: string) => ({ method, path }) as Operation;

/**
 * The guards of routes not yet declared as endpoints (http/endpoint.ts), by method and path. An
 * endpoint declares its own `guards`; its entry here goes when it does (a guard listed twice counts
 * twice).
 */
export const LEGACY_GUARDS: readonly Guarded[] = [
  { operation: at("get", "/verify"), guards: { limit: { name: "verify", per5Min: "verify" } } },
  { operation: at("post", "/verify"), guards: { limit: { name: "verify", per5Min: "verify" } } },
  {
    operation: at("post", "/otp"),
    guards: { limit: { name: "otp", per5Min: "otp" }, captcha: true, pacing: "message" },
  },
  {
    operation: at("post", "/magiclink"),
    guards: { limit: { name: "magiclink", per5Min: "otp" }, captcha: true, pacing: "message" },
  },
  {
    operation: at("post", "/recover"),
    guards: { limit: { name: "recover", per5Min: "otp" }, captcha: true, pacing: "message" },
  },
  {
    operation: at("post", "/resend"),
    guards: { limit: { name: "resend", per5Min: "otp" }, captcha: true, pacing: "message" },
  },
  { operation: at("get", "/authorize"), guards: { limit: { name: "authorize", per5Min: "authorize" } } },
  {
    operation: at("get", "/oauth/authorize"),
    guards: { limit: { name: "oauth_authorize", per5Min: "oauthAuthorize" } },
  },
  { operation: at("post", "/sso"), guards: { captcha: true } },
];
