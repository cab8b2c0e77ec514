import type { HookFunctions } from "@authsvc/core/hooks";
import type { Sql } from "postgres";
import { json, type Queryable } from "./rows.js";

/**
 * `HookFunctions` on a pool: a `pg-functions://` hook is `select "schema"."name"(payload)` under a
 * local statement timeout, in a transaction of its own.
 */
export function postgresHookFunctions(sql: Sql): HookFunctions {
  return {
    call(schema, name, payload, timeoutMs) {
      return sql.begin(async (tx) => {
        await tx`select set_config('statement_timeout', ${`${timeoutMs}ms`}, true)`;
        const [row] = await tx`select ${tx(schema)}.${tx(name)}(${json(tx, payload)}::jsonb) as answer`;
        return row?.answer ?? null;
      }) as Promise<unknown>;
    },
  };
}

/**
 * Why the function a `pg-functions://` hook names cannot be called as the hook calls it, by the role
 * of `sql`: it does not exist with one `jsonb` argument (the other functions of that name are
 * listed), does not return `jsonb` or `json`, or the role may not use its schema or execute it.
 * Null when it can be called.
 */
export async function hookFunctionProblem(
  sql: Queryable,
  schema: string,
  name: string,
): Promise<string | null> {
  const wanted = `${schema}.${name}(jsonb)`;
  const [found] = await sql`
    select
      p.oid is not null as exists,
      format_type(p.prorettype, null) as returns,
      coalesce(has_schema_privilege(n.oid, 'usage'), false) as usable,
      coalesce(has_function_privilege(p.oid, 'execute'), false) as executable
    from (select to_regprocedure(format('%I.%I(jsonb)', ${schema}::text, ${name}::text)) as oid) as f
    left join pg_catalog.pg_proc as p on p.oid = f.oid
    left join pg_catalog.pg_namespace as n on n.oid = p.pronamespace`;
  if (found?.exists !== true) {
    const others = await sql`
      select p.oid::regprocedure::text as signature
      from pg_catalog.pg_proc as p
      join pg_catalog.pg_namespace as n on n.oid = p.pronamespace
      where n.nspname = ${schema}
        and p.proname = ${name}
      order by 1`;
    const listed = others.map((row) => String(row.signature)).join(", ");
    return `function ${wanted} does not exist${listed ? ` (found: ${listed})` : ""}`;
  }
  if (found.returns !== "jsonb" && found.returns !== "json") {
    return `function ${wanted} returns ${found.returns}, not jsonb`;
  }
  if (found.usable !== true) return `the database role may not use schema ${schema}`;
  if (found.executable !== true) return `the database role may not execute ${wanted}`;
  return null;
}
