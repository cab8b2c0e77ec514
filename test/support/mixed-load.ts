import { randomBytes } from "node:crypto";

/**
 * A mixed load on a server, as many clients would make it: sign-ups, refresh-token grants and
 * GET /user, from a few loops at once, each request's outcome recorded with when it started and ended.
 * Each refresh token is presented once by the load: a token answered 200 is replaced by its child,
 * one answered anything else is kept aside (its answer was lost) for the test to replay.
 */
export type Kind = "signup" | "refresh" | "user";

export interface Outcome {
  kind: Kind;
  /** performance.now() when the request was sent and when its answer (or the timeout) came. */
  started: number;
  ended: number;
  /** 0: no answer within the client's timeout, or the connection failed. */
  status: number;
  body?: Record<string, unknown>;
}

export interface Account {
  email: string;
  password: string;
  accessToken: string;
}

export interface Rotation {
  parent: string;
  child: string;
}

export interface MixedLoad {
  outcomes: Outcome[];
  /** Accounts whose sign-up was answered 200. */
  accounts: Account[];
  /** Refresh grants answered 200: the token presented and the one answered. */
  rotations: Rotation[];
  /** Refresh tokens presented once whose answer was not a 200 (lost during the outage). */
  unanswered: string[];
  /** Stops the loops and resolves once every request in flight is settled. */
  stop(): Promise<void>;
}

const KINDS: Kind[] = ["signup", "refresh", "user", "refresh", "user"];

export function startMixedLoad(
  server: { url: string; apikey: string },
  options: { loops: number; timeoutMs: number },
): MixedLoad {
  const outcomes: Outcome[] = [];
  const accounts: Account[] = [];
  const rotations: Rotation[] = [];
  const unanswered: string[] = [];
  // Refresh tokens not presented yet; each is taken by exactly one request.
  const fresh: string[] = [];
  let running = true;

  async function call(kind: Kind, path: string, init: RequestInit): Promise<Outcome> {
    const started = performance.now();
    const outcome: Outcome = { kind, started, ended: started, status: 0 };
    try {
      const res = await fetch(`${server.url}${path}`, {
        ...init,
        headers: { "content-type": "application/json", apikey: server.apikey, ...init.headers },
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      outcome.status = res.status;
      outcome.body = (await res.json()) as Record<string, unknown>;
    } catch {
      outcome.status = 0;
    }
    outcome.ended = performance.now();
    outcomes.push(outcome);
    return outcome;
  }

  async function signUp() {
    const email = `failover-${randomBytes(6).toString("hex")}@example.com`;
    const password = `pw-${randomBytes(9).toString("base64url")}`;
    const { status, body } = await call("signup", "/signup", {
      method: "POST",
      body: JSON.stringify({ email, password }),
    });
    if (status !== 200 || !body) return;
    accounts.push({ email, password, accessToken: String(body.access_token) });
    fresh.push(String(body.refresh_token));
  }

  async function refresh() {
    const token = fresh.shift();
    if (token === undefined) return signUp();
    const { status, body } = await call("refresh", "/token?grant_type=refresh_token", {
      method: "POST",
      body: JSON.stringify({ refresh_token: token }),
    });
    if (status === 200 && body) {
      const child = String(body.refresh_token);
      rotations.push({ parent: token, child });
      fresh.push(child);
    } else {
      unanswered.push(token);
    }
  }

  async function getUser() {
    const account = accounts[Math.floor(Math.random() * accounts.length)];
    if (!account) return signUp();
    await call("user", "/user", { headers: { authorization: `Bearer ${account.accessToken}` } });
  }

  const loop = async (offset: number) => {
    for (let i = offset; running; i++) {
      const kind = KINDS[i % KINDS.length];
      await (kind === "signup" ? signUp() : kind === "refresh" ? refresh() : getUser());
    }
  };
  const loops = Array.from({ length: options.loops }, (_, i) => loop(i));
  return {
    outcomes,
    accounts,
    rotations,
    unanswered,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}
