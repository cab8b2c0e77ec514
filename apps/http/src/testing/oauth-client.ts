import { createHash } from "node:crypto";
import { secretTokens } from "@authsvc/adapters";
import type { AuthSettings } from "@authsvc/core";
import { send } from "./requests.js";
import { testApp } from "./test-app.js";

export const VERIFIER = "v".repeat(64);
export const REDIRECT = "https://app.example/cb";

/**
 * An app with the OAuth server on (fakes, but real secret tokens, so S256 and the token signatures
 * are real), Ann signed in with the role `role`, and a public client. `start` begins a code flow for
 * `scope` and gives its authorization id; `open` shows it to Ann (the consent page's details, or the
 * redirect when her consent already covers it); `approve` gives the redirect her approval answers.
 */
export async function withPublicClient(role = "authenticated", settings: Partial<AuthSettings> = {}) {
  const base = testApp().auth.settings;
  const t = testApp({}, { signup: { ...base.signup, mailerAutoconfirm: true }, ...settings });
  Object.assign(t.auth, { tokens: secretTokens("test-key") });
  const signup = await send(t.app, "POST", "/signup", { email: "ann@example.com", password: "secret-pw" });
  const { user: ann } = (await signup.json()) as { user: { id: string } };
  const stored = t.auth.store.tables.users.get(ann.id);
  if (!stored) throw new Error("no user");
  t.auth.store.tables.users.set(ann.id, { ...stored, role });
  // Signed in after the role is set, so that her access token carries it.
  const signin = await send(t.app, "POST", "/token?grant_type=password", {
    email: "ann@example.com",
    password: "secret-pw",
  });
  const { access_token: token } = (await signin.json()) as { access_token: string };
  const registered = await send(t.app, "POST", "/oauth/clients/register", {
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: "none",
    client_name: "App",
  });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const user = { authorization: `Bearer ${token}` };
  const challenge = createHash("sha256").update(VERIFIER).digest("base64url");
  const start = async (scope: string, resource?: string): Promise<string> => {
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope,
      code_challenge: challenge,
      code_challenge_method: "S256",
      ...(resource ? { resource } : {}),
    });
    const started = await t.app.request(`/oauth/authorize?${query}`);
    return new URL(started.headers.get("location") as string).searchParams.get("authorization_id") as string;
  };
  const open = async (id: string) => {
    const details = await t.app.request(`/oauth/authorizations/${id}`, { headers: user });
    return (await details.json()) as { redirect_url?: string; scope?: string };
  };
  const approve = async (id: string): Promise<string> => {
    const answer = await send(
      t.app,
      "POST",
      `/oauth/authorizations/${id}/consent`,
      { action: "approve" },
      user,
    );
    return ((await answer.json()) as { redirect_url: string }).redirect_url;
  };
  return { ...t, ann, user, clientId, start, open, approve };
}
