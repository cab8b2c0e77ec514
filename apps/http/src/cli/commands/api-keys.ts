import { parseArgs } from "node:util";
import { signApiKey } from "@authsvc/adapters";
import { loadSigningOnly } from "../../composition/partial-load.js";
import { ensureDevSecret } from "../../infrastructure/jwt/dev-secret.js";
import type { Command } from "../command.js";
import { environment, refuseConfiguration } from "../environment.js";
import { refuse } from "../refuse.js";

const ROLES = ["anon", "service_role"] as const;
type Role = (typeof ROLES)[number];

/**
 * `authsvc api-keys`: the `anon` and `service_role` keys (JWTs whose claim that matters is `role`,
 * valid ten years) signed as the server signs: with the signing key of AUTHSVC_JWT_KEYS when it is
 * set, else HS256 with AUTHSVC_JWT_SECRET (in embedded mode, the development secret of the data
 * folder). Reads only the JWT variables, so it runs wherever the server's environment is.
 */
export const apiKeys: Command = {
  name: "api-keys",
  summary: "print the anon and service_role API keys signed with the configured secret or key",
  usage: `usage: authsvc api-keys [--role anon|service_role]

Prints the API keys that clients send as 'apikey: <key>' (and, for the admin endpoints, as
'Authorization: Bearer <service_role key>'), one per line as '<role> <key>', signed with the
signing key of AUTHSVC_JWT_KEYS when set, else with AUTHSVC_JWT_SECRET (in embedded mode the
development secret kept in AUTHSVC_DATA_DIR). Keys are valid for ten years; making new ones
does not revoke old ones: changing the secret or the signing key does.
  --role <role>  print only that key, alone on its line (for scripts)`,
  async run(args) {
    let role: string | undefined;
    try {
      ({
        values: { role },
      } = parseArgs({ args: [...args], options: { role: { type: "string" } }, strict: true }));
    } catch (error) {
      return refuse(this, (error as Error).message);
    }
    if (role !== undefined && !(ROLES as readonly string[]).includes(role))
      return refuse(this, `--role must be anon or service_role, got ${JSON.stringify(role)}`);
    const loaded = loadSigningOnly(environment(), ensureDevSecret);
    if (!loaded.ok) return refuseConfiguration(loaded.problems, loaded.warnings);
    const { jwt } = loaded.config;
    const now = Math.floor(Date.now() / 1000);
    const sign = (r: Role) => signApiKey(jwt.secret, r, now, jwt.keys);
    if (role !== undefined) {
      process.stdout.write(`${await sign(role as Role)}\n`);
      return 0;
    }
    for (const r of ROLES) process.stdout.write(`${r.padEnd(12)} ${await sign(r)}\n`);
    return 0;
  },
};
