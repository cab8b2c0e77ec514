/**
 * The `admin` extra of `npm run bench`: `GET /admin/users` on the populated database, with a
 * service-role token: the first page, page 1,000 (50 a page), the last page and three filters (and
 * `/health`, the floor), each its p50 and p99 at one connection (an administrator's dashboard) and at
 * four (more than the server's one core answers: the p99 then includes waiting for it), and whether
 * `X-Total-Count` equals `count(*)` of the users table at that moment (no sign-up runs meanwhile).
 * Target: p99 ≤ 50 ms at a million users, at one connection.
 */
import autocannon from "autocannon";
import { SignJWT } from "jose";
import postgres from "postgres";

/** The `filter` values measured (a population address is `population-<n>@example.com`). */
const FILTERS = ["4242", "population-4242", "example.com"];

/** The connections each request is measured at; the target is judged at the first. */
const CONNECTIONS = [1, 4];

export interface AdminListResult {
  page: string;
  connections: number;
  p50: number;
  p99: number;
  rps: number;
  errors: number;
}

export async function adminList(options: {
  url: string;
  databaseUrl: string;
  secret: string;
  durationS: number;
}): Promise<{
  users: number;
  totalCountExact: boolean;
  totalCount: number;
  pages: AdminListResult[];
  met: boolean;
}> {
  const token = await new SignJWT({ role: "service_role" })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(options.secret));
  const headers = { authorization: `Bearer ${token}` };
  const sql = postgres(options.databaseUrl, { max: 1, onnotice: () => {} });
  const count = async () =>
    (await sql<{ n: number }[]>`select count(*)::int as n from auth.users`)[0]?.n ?? 0;
  let users: number;
  let totalCount: number;
  try {
    // Requests of the scenarios still in flight (a sign-up waiting for its hash) may add users: the
    // header is compared with a count that did not move across the request.
    for (let attempt = 1; ; attempt++) {
      const before = await count();
      const first = await fetch(`${options.url}/admin/users?page=1&per_page=50`, { headers });
      if (first.status !== 200) throw new Error(`GET /admin/users: ${first.status} ${await first.text()}`);
      totalCount = Number(first.headers.get("x-total-count"));
      users = await count();
      if (before === users || attempt >= 10) break;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  } finally {
    await sql.end();
  }
  const lastPage = Math.max(1, Math.ceil(users / 50));
  const pages: AdminListResult[] = [];
  const queries: [string, string][] = [
    // The floor on this machine at this moment: a constant answer, measured the same way.
    ["/health (floor)", ""],
    ["1", "page=1&per_page=50"],
    ["1000", "page=1000&per_page=50"],
    [`${lastPage} (last)`, `page=${lastPage}&per_page=50`],
    // Filters: part of one population address (a few hundred matches), the whole distinctive part
    // (which shares eleven trigrams with every address), and one every user matches (count capped).
    ...FILTERS.map((filter): [string, string] => [`filter=${filter}`, `filter=${filter}&per_page=50`]),
  ];
  for (const connections of CONNECTIONS) {
    for (const [page, query] of queries) {
      const path = query ? `/admin/users?${query}` : "/health";
      const r = await autocannon({
        url: `${options.url}${path}`,
        headers,
        connections,
        duration: options.durationS,
      });
      pages.push({
        page,
        connections,
        p50: r.latency.p50,
        p99: r.latency.p99,
        rps: r.requests.average,
        errors: r.non2xx + r.errors + r.timeouts,
      });
    }
  }
  const totalCountExact = totalCount === users;
  return {
    users,
    totalCount,
    totalCountExact,
    pages,
    met:
      totalCountExact &&
      pages.every((p) => p.errors === 0 && (p.connections !== CONNECTIONS[0] || p.p99 <= 50)),
  };
}
