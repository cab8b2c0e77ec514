import type { AuthDeps } from "@authsvc/core";
import type { Hono } from "hono";

/** The header that selects the `{code, message}` error shape. */
export const NEW_API = { "X-Supabase-Api-Version": "2024-01-01" } as const;

type App = Pick<Hono, "request">;

/** A JSON request on the in-process app. */
export function send(
  app: App,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(
    app.request(path, {
      method,
      headers: { "content-type": "application/json", ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

/** `Authorization` for a token with `role` (the fake signer's tokens), valid for a minute. */
export async function bearer(auth: AuthDeps, claims: Record<string, unknown>) {
  const exp = Math.floor(auth.clock.now().getTime() / 1000) + 60;
  const token = await auth.signer.sign({ exp, ...claims } as never);
  return { authorization: `Bearer ${token}` };
}
