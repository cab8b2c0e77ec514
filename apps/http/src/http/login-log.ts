import type { Context } from "hono";
import type { AppEnv } from "./app-env.js";

/**
 * The reference's metering line for a sign-in (`"Login"`, `login_method` one of oauth, pkce, oidc,
 * …): what sign-in dashboards count. Carries ids only, never a token.
 */
export function logLogin(
  c: Context<AppEnv>,
  fields: { method: string; userId: string; provider?: string | undefined },
): void {
  c.get("log").info(
    {
      metering: true,
      action: "login",
      login_method: fields.method,
      user_id: fields.userId,
      provider: fields.provider,
    },
    "Login",
  );
}
