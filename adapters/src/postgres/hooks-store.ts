import type { HookFunctions } from "@authsvc/core";
import type { Sql, TransactionSql } from "postgres";
import { json, type Queryable } from "./rows.js";

/**
 * `HookFunctions` on a connection: a `pg-functions://` hook is `select "schema"."name"(payload)`
 * under a local statement timeout, in the caller's transaction when `transaction` is given (so the
 * hook sees, and its failure undoes, the change it extends), else in a transaction of its own.
 * The timeout is restored afterwards, so the rest of the caller's transaction keeps its own.
 */
export function postgresHookFunctions(
  sql: Queryable,
  options: { transaction?: TransactionSql | undefined },
): HookFunctions {
  const callIn = async (tx: Queryable, schema: string, name: string, payload: unknown, timeoutMs: number) => {
    const [before] = await tx`select current_setting('statement_timeout') as was`;
    await tx`select set_config('statement_timeout', ${`${timeoutMs}ms`}, true)`;
    const [row] = await tx`select ${tx(schema)}.${tx(name)}(${json(tx, payload)}::jsonb) as answer`;
    await tx`select set_config('statement_timeout', ${String(before?.was ?? "0")}, true)`;
    return row?.answer ?? null;
  };
  return {
    call(schema, name, payload, timeoutMs) {
      if (options.transaction !== undefined)
        return callIn(options.transaction, schema, name, payload, timeoutMs);
      return (sql as Sql).begin((tx) => callIn(tx, schema, name, payload, timeoutMs)) as Promise<unknown>;
    },
  };
}
