/**
 * The `client_credentials` grant (RFC 6749 §4.4) at `POST /oauth/token`: a confidential client that
 * the bench registers through the admin API authenticates with `client_secret_basic` and receives a
 * token of its own — no user, no session, nothing written. The baseline (bench/bare-server.ts (f))
 * authenticates the same client from the same row and signs a token.
 */
import type autocannon from "autocannon";
import { SignJWT } from "jose";
import { SECRET } from "./options.js";

const form = { "content-type": "application/x-www-form-urlencoded" };

/** The client's `Authorization: Basic` header, registered on `ours` on first use. */
function clientOf(ours: string) {
  let basic: Promise<string> | undefined;
  const register = async () => {
    const serviceKey = await new SignJWT({ role: "service_role" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode(SECRET));
    const res = await fetch(`${ours}/admin/oauth/clients`, {
      method: "POST",
      headers: { authorization: `Bearer ${serviceKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "bench machine",
        redirect_uris: ["https://machine.example/unused"],
        grant_types: ["client_credentials"],
        scope: "email",
      }),
    });
    if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
    const { client_id, client_secret } = (await res.json()) as { client_id: string; client_secret: string };
    return `Basic ${Buffer.from(`${client_id}:${client_secret}`).toString("base64")}`;
  };
  return () => {
    basic ??= register();
    return basic;
  };
}

/** The loads of authsvc's grant and of the baseline's route, for one client. */
export function clientCredentialsLoads(ours: string, base: string) {
  const basic = clientOf(ours);
  const load =
    (url: string, body: string) =>
    async (connections: number): Promise<autocannon.Options> => ({
      url,
      connections,
      method: "POST",
      headers: { ...form, authorization: await basic() },
      body,
    });
  return {
    ours: load(`${ours}/oauth/token`, "grant_type=client_credentials"),
    base: load(`${base}/client-token`, "grant_type=client_credentials"),
  };
}
