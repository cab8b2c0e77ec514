import { createRequire } from "node:module";
import type * as Flexible from "rate-limiter-flexible";

/**
 * The parts of rate-limiter-flexible this server uses, each required from its own file: the package's
 * entry requires every store it supports (Mongo, MySQL, DynamoDB, Prisma, Drizzle, etcd, Valkey,
 * cluster, …), some megabytes of code no instance runs. The types stay those of the entry.
 */
const require = createRequire(import.meta.url);
const part = <K extends keyof typeof Flexible>(name: K): (typeof Flexible)[K] =>
  require(`rate-limiter-flexible/lib/${name}.js`) as (typeof Flexible)[K];

export const RateLimiterMemory = part("RateLimiterMemory");
export const RateLimiterRes = part("RateLimiterRes");
export const RateLimiterPostgres = part("RateLimiterPostgres");
export const RateLimiterRedis = part("RateLimiterRedis");
