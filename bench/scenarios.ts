/**
 * The scenarios of `npm run bench` against one pair of servers (authsvc and its baseline): the
 * loads autocannon runs, with what each needs first (live refresh tokens, fresh addresses).
 */
import type autocannon from "autocannon";
import { clientCredentialsLoads } from "./client-credentials.js";
import { oauthRefreshLoad } from "./oauth-refresh.js";
import { json, PASSWORD } from "./options.js";
import type { Scenario } from "./report.js";

/** A pair measured side by side: authsvc and the baseline server, and a user's access token. */
export interface Pair {
  /** "" direct; " (PgBouncer)" through the pooler: appended to the scenario's name. */
  label: string;
  ours: string;
  base: string;
  token: string;
}

export async function post(url: string, body: unknown): Promise<Record<string, string>> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, string>;
}

/**
 * A refresh load: each in-flight request takes one live token of its own session and puts the
 * answer's token back, so every request is a real rotation. Tokens lost when a run stops mid-request
 * are replaced by `seed` before the next run.
 */
export function refreshLoad(seed: () => Promise<string>) {
  const pool: string[] = [];
  return async (url: string, connections: number): Promise<autocannon.Options> => {
    const missing = connections - pool.length;
    // A seed that times out on a loaded machine is tried again, not the end of the run.
    const retried = async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await seed();
        } catch (error) {
          if (attempt >= 5) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
        }
      }
    };
    const seeded = await Promise.all(Array.from({ length: Math.max(0, missing) }, retried));
    pool.push(...seeded);
    return {
      url,
      connections,
      requests: [
        {
          method: "POST",
          headers: json,
          setupRequest: (req) => ({ ...req, body: JSON.stringify({ refresh_token: pool.shift() }) }),
          onResponse: (status, body) => {
            if (status === 200) pool.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
          },
        },
      ],
    };
  };
}

/** Sign-ups with addresses never used before. */
function signupLoad(prefix: string) {
  let n = 0;
  return (url: string, connections: number): autocannon.Options => ({
    url,
    connections,
    requests: [
      {
        method: "POST",
        headers: json,
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ email: `${prefix}-${Date.now()}-${++n}@example.com`, password: PASSWORD }),
        }),
      },
    ],
  });
}

/** The scenarios of a pair, by their `--scenarios` names. */
export function scenariosOf(pair: Pair): Record<string, Scenario> {
  const signIn = async () =>
    (await post(`${pair.ours}/token?grant_type=password`, { email: "bench@example.com", password: PASSWORD }))
      .refresh_token as string;
  const oursRefresh = refreshLoad(signIn);
  const baseRefresh = refreshLoad(
    async () => (await post(`${pair.base}/sessions`, { email: "bench@example.com" })).refresh_token as string,
  );
  const password = (url: string, connections: number): autocannon.Options => ({
    url,
    connections,
    method: "POST",
    headers: json,
    body: JSON.stringify({ email: "bench@example.com", password: PASSWORD }),
  });
  // Addresses unique across pairs too: both pairs write to the same database.
  const prefix = pair.label ? "pooled" : "direct";
  const machine = clientCredentialsLoads(pair.ours, pair.base);
  return {
    user: {
      name: "GET /user",
      baseline: "(b) jose verify + PK select",
      target: 0.6,
      ours: (connections) => ({
        url: `${pair.ours}/user`,
        connections,
        headers: { authorization: `Bearer ${pair.token}` },
      }),
      base: (connections) => ({
        url: `${pair.base}/user`,
        connections,
        headers: { authorization: `Bearer ${pair.token}` },
      }),
    },
    refresh: {
      name: "refresh grant",
      baseline: "(c) 3-statement rotation + sign",
      target: 1.0,
      ours: (connections) => oursRefresh(`${pair.ours}/token?grant_type=refresh_token`, connections),
      base: (connections) => baseRefresh(`${pair.base}/refresh`, connections),
    },
    // An OAuth client's refresh at /oauth/token, plain and DPoP-bound (bench/oauth-refresh.ts).
    "oauth-refresh": {
      name: "OAuth client refresh",
      baseline: "(c) 3-statement rotation + sign",
      target: 1.0,
      ours: oauthRefreshLoad(pair.ours, pair.token, false),
      base: (connections) => baseRefresh(`${pair.base}/refresh`, connections),
    },
    "dpop-refresh": {
      name: "DPoP-bound refresh",
      baseline: "(c) 3-statement rotation + sign",
      target: 0.8,
      ours: oauthRefreshLoad(pair.ours, pair.token, true),
      base: (connections) => baseRefresh(`${pair.base}/refresh`, connections),
    },
    // A confidential client's own token (bench/client-credentials.ts).
    "client-credentials": {
      name: "client_credentials grant",
      baseline: "(f) select client + SHA-256 compare + sign",
      target: 0.75,
      ours: machine.ours,
      base: machine.base,
    },
    password: {
      name: "password grant",
      baseline: "(d) argon2id verify + select + insert",
      target: 0.85,
      ours: (connections) => password(`${pair.ours}/token?grant_type=password`, connections),
      base: (connections) => password(`${pair.base}/password`, connections),
    },
    signup: {
      name: "sign-up",
      baseline: "(e) argon2id hash + inserts",
      target: 0.8,
      ours: (connections) => signupLoad(`${prefix}-ours`)(`${pair.ours}/signup`, connections),
      base: (connections) => signupLoad(`${prefix}-base`)(`${pair.base}/signup`, connections),
    },
  };
}
