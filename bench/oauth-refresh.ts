/**
 * The OAuth client's refresh at `POST /oauth/token`, plain and DPoP-bound (RFC 9449): sessions of a
 * public client started by the code flow (the bench user's consent given through the consent API),
 * each refresh a real rotation, the bound one with a fresh ES256 proof per request (signed in
 * `setupRequest`, which autocannon calls synchronously: node:crypto's sign is).
 */
import { createHash, generateKeyPairSync, randomBytes, randomUUID, sign } from "node:crypto";
import type autocannon from "autocannon";

/** Where clients reach the server (`API_EXTERNAL_URL` of the bench's env): what a proof's `htu` names. */
const EXTERNAL_URL = "http://localhost:9999";
const REDIRECT = "http://127.0.0.1:8123/callback";
const form = { "content-type": "application/x-www-form-urlencoded" };
const b64 = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/** One key of the client: a proof for each request, signed synchronously. */
function dpopKey() {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const header = b64(
    JSON.stringify({ typ: "dpop+jwt", alg: "ES256", jwk: publicKey.export({ format: "jwk" }) }),
  );
  return (htm: string, path: string): string => {
    const claims = {
      jti: randomUUID(),
      htm,
      htu: `${EXTERNAL_URL}${path}`,
      iat: Math.floor(Date.now() / 1000),
    };
    const input = `${header}.${b64(JSON.stringify(claims))}`;
    const signature = sign("sha256", Buffer.from(input), { key: privateKey, dsaEncoding: "ieee-p1363" });
    return `${input}.${b64(signature)}`;
  };
}

/**
 * A refresh load at `ours`'s `/oauth/token` for a public client it registers, bound to a DPoP key
 * when `bound`; `userToken` is the bench user's access token (its consent). Sessions are seeded one
 * per connection by the code flow, and a run's lost tokens replaced before the next.
 */
export function oauthRefreshLoad(ours: string, userToken: string, bound: boolean) {
  const proof = dpopKey();
  const pool: string[] = [];
  let clientId: string | undefined;
  const auth = { authorization: `Bearer ${userToken}` };
  async function session(): Promise<string> {
    if (clientId === undefined) {
      const registered = await fetch(`${ours}/oauth/clients/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          client_name: "bench",
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: "none",
        }),
      });
      if (registered.status !== 201)
        throw new Error(`register: ${registered.status} ${await registered.text()}`);
      clientId = ((await registered.json()) as { client_id: string }).client_id;
    }
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope: "email",
      state: "s",
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    const started = await fetch(`${ours}/oauth/authorize?${query}`, { redirect: "manual" });
    const id = new URL(started.headers.get("location") ?? "").searchParams.get("authorization_id");
    if (!id) throw new Error(`authorize: ${started.status} ${started.headers.get("location")}`);
    const details = (await (await fetch(`${ours}/oauth/authorizations/${id}`, { headers: auth })).json()) as {
      redirect_url?: string;
    };
    const redirect =
      details.redirect_url ??
      (
        (await (
          await fetch(`${ours}/oauth/authorizations/${id}/consent`, {
            method: "POST",
            headers: { ...auth, "content-type": "application/json" },
            body: JSON.stringify({ action: "approve" }),
          })
        ).json()) as { redirect_url: string }
      ).redirect_url;
    const code = new URL(redirect).searchParams.get("code") ?? "";
    const exchanged = await fetch(`${ours}/oauth/token`, {
      method: "POST",
      headers: { ...form, ...(bound ? { dpop: proof("POST", "/oauth/token") } : {}) },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        client_id: clientId,
        redirect_uri: REDIRECT,
      }),
    });
    if (exchanged.status !== 200) throw new Error(`exchange: ${exchanged.status} ${await exchanged.text()}`);
    return ((await exchanged.json()) as { refresh_token: string }).refresh_token;
  }
  return async (connections: number): Promise<autocannon.Options> => {
    while (pool.length < connections) pool.push(await session());
    const id = clientId as string;
    return {
      url: `${ours}/oauth/token`,
      connections,
      requests: [
        {
          method: "POST",
          setupRequest: (req) => ({
            ...req,
            headers: { ...form, ...(bound ? { dpop: proof("POST", "/oauth/token") } : {}) },
            body: new URLSearchParams({
              grant_type: "refresh_token",
              refresh_token: pool.shift() ?? "",
              client_id: id,
            }).toString(),
          }),
          onResponse: (status, body) => {
            if (status === 200) pool.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
          },
        },
      ],
    };
  };
}
