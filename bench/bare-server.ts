/**
 * The baselines of `npm run bench`: what each authsvc endpoint would cost written by hand on the same
 * stack (Hono on @hono/node-server, postgres.js with authsvc's pool size, jose, @node-rs/argon2 with the
 * service's parameters), one Node process like authsvc, over the same database and tables.
 *
 * (a) GET  /bare      a JSON constant
 * (b) GET  /user      jose HS256 verify + one primary-key select of the user row → JSON
 * (c) POST /refresh   the 3-statement rotation transaction (select … for update, revoke, insert child)
 *                     + signing the new access token
 * (d) POST /password  one select by email + one argon2id verify + one session insert
 * (e) POST /signup    one argon2id hash + the sign-up inserts (user, identity) in a transaction
 * (f) POST /client-token  `client_secret_basic`: one select of the client's row, the SHA-256 of the
 *                     secret compared in constant time, signing the client's token
 * and POST /sessions, which seeds (c): a session with a first refresh token for the user of `email`.
 *
 * Environment: DATABASE_URL, JWT_SECRET, DB_MAX_POOL_SIZE (10), DB_NAMESPACE (auth), DB_PREPARED_STATEMENTS
 * (true).
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { serve } from "@hono/node-server";
import { hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";
import { Hono } from "hono";
import { jwtVerify, SignJWT } from "jose";
import postgres from "postgres";

const url = process.env.DATABASE_URL;
const secret = process.env.JWT_SECRET;
if (!url || !secret) throw new Error("bare-server: DATABASE_URL and JWT_SECRET are required");
const sql = postgres(url, {
  max: Number(process.env.DB_MAX_POOL_SIZE ?? 10),
  // false behind PgBouncer in transaction mode (`npm run bench -- --pgbouncer`), as authsvc there.
  prepare: process.env.DB_PREPARED_STATEMENTS !== "false",
  onnotice: () => {},
  // The bench reads the CPU time of the backends by this name.
  connection: { application_name: "bench-baseline" },
});
const ns = process.env.DB_NAMESPACE ?? "auth";
const users = sql`${sql(ns)}.users`;
const identities = sql`${sql(ns)}.identities`;
const sessions = sql`${sql(ns)}.sessions`;
const tokens = sql`${sql(ns)}.refresh_tokens`;
const clients = sql`${sql(ns)}.oauth_clients`;
const key = new TextEncoder().encode(secret);
// The service's argon2id parameters (m=19456 KiB, t=2, p=1); 2 is the Argon2id const enum.
const ARGON2 = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const newToken = () => randomBytes(18).toString("base64url");
const sign = (sub: string, sessionId: string) => {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub, aud: "authenticated", exp: now + 3600, iat: now, session_id: sessionId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .sign(key);
};
const bad = { error: "bad" };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const app = new Hono()
  .get("/bare", (c) => c.json({ ok: true }))
  .get("/user", async (c) => {
    const token = c.req.header("authorization")?.slice(7) ?? "";
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], requiredClaims: ["exp"] });
      const [user] = await sql`select * from ${users} where id = ${payload.sub ?? ""}`;
      return user ? c.json(user) : c.json(bad, 401);
    } catch {
      return c.json(bad, 401);
    }
  })
  .post("/sessions", async (c) => {
    const { email } = await c.req.json<{ email: string }>();
    const [user] = await sql`select id from ${users} where email = ${email}`;
    if (!user) return c.json(bad, 404);
    const refresh = newToken();
    const sessionId = randomUUID();
    await sql.begin(async (tx) => {
      await tx`insert into ${sessions} (id, user_id) values (${sessionId}, ${user.id})`;
      await tx`insert into ${tokens} (token_hash, user_id, session_id) values (${sha256(refresh)}, ${user.id}, ${sessionId})`;
    });
    return c.json({ refresh_token: refresh });
  })
  .post("/refresh", async (c) => {
    const { refresh_token } = await c.req.json<{ refresh_token: string }>();
    const child = newToken();
    const rotated = await sql.begin(async (tx) => {
      const [row] = await tx`
        select id, user_id, session_id from ${tokens}
        where token_hash = ${sha256(refresh_token)} and revoked = false
        for update`;
      if (!row) return null;
      await tx`update ${tokens} set revoked = true, updated_at = now() where id = ${row.id}`;
      await tx`
        insert into ${tokens} (token_hash, user_id, session_id, parent_id)
        values (${sha256(child)}, ${row.user_id}, ${row.session_id}, ${row.id})`;
      return row;
    });
    if (!rotated) return c.json(bad, 400);
    const access = await sign(rotated.user_id, rotated.session_id);
    return c.json({ access_token: access, refresh_token: child });
  })
  .post("/password", async (c) => {
    const { email, password } = await c.req.json<{ email: string; password: string }>();
    const [user] = await sql`select id, encrypted_password from ${users} where email = ${email}`;
    if (!user || !(await argon2Verify(user.encrypted_password, password))) return c.json(bad, 400);
    const [session] = await sql`insert into ${sessions} (user_id) values (${user.id}) returning id`;
    return c.json({ access_token: await sign(user.id, session?.id) });
  })
  .post("/client-token", async (c) => {
    const [id = "", secretText = ""] = Buffer.from((c.req.header("authorization") ?? "").slice(6), "base64")
      .toString()
      .split(":");
    if (!UUID.test(id)) return c.json(bad, 401);
    const [client] = await sql`
      select client_secret_hash, scope from ${clients} where id = ${id} and deleted_at is null`;
    const presented = Buffer.from(sha256(decodeURIComponent(secretText)));
    const stored = Buffer.from(client?.client_secret_hash ?? "");
    if (!client || stored.length !== presented.length || !timingSafeEqual(stored, presented))
      return c.json(bad, 401);
    const now = Math.floor(Date.now() / 1000);
    const access = await new SignJWT({ sub: id, client_id: id, scope: client.scope ?? "", role: "anon" })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(key);
    return c.json({ access_token: access, token_type: "Bearer", expires_in: 3600 });
  })
  .post("/signup", async (c) => {
    const { email, password } = await c.req.json<{ email: string; password: string }>();
    const hashed = await argon2Hash(password, ARGON2);
    const id = randomUUID();
    await sql.begin(async (tx) => {
      await tx`
        insert into ${users} (id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data)
        values (${id}, 'authenticated', 'authenticated', ${email}, ${hashed}, now(), '{"provider":"email"}', '{}')`;
      await tx`
        insert into ${identities} (provider_id, user_id, identity_data, provider)
        values (${id}, ${id}, ${sql.json({ sub: id, email })}, 'email')`;
    });
    return c.json({ id, email });
  });

serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${info.port}` })}\n`);
});
// Exit normally on a signal, so that `node --cpu-prof` writes its profile.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(0));
