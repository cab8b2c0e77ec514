import type { Sql } from "@authsvc/adapters";
import type { AuthDeps, AuthSettings, FailureName } from "@authsvc/core";
import type { ErrorCode } from "@authsvc/core/kernel";
import type { Logger } from "pino";
import type { Section } from "../config/sections/section.js";
import type { Config } from "../config/types.js";
import type { AppDeps } from "../http/app-deps.js";
import { endpoint as declare, type Endpoint, type EndpointGuards } from "../http/endpoint.js";
import type { HttpGrant, HttpGrantRegistry } from "../http/grants/http-grant.js";
import type { Operation } from "../http/operation.js";
import type { Jwks } from "../infrastructure/jwt/crypto.js";
import type { ReadinessCheck } from "../infrastructure/server/readiness-check.js";
import type { Settings } from "../infrastructure/server/settings-view.js";

/** Everything the server's routes need: the HTTP layer's dependencies and what the modules serve. */
export interface ServerDeps extends AppDeps {
  /** The configuration the server runs with: a module's routes read their section's part of it. */
  readonly config: Config;
  readonly settings: Settings;
  /** The public signing keys served at `/.well-known/jwks.json`; none when absent (`JWT_SECRET` alone). */
  readonly jwks?: Jwks;
  /** What `GET /health/ready` checks (the database); ready with none. */
  readonly readiness?: readonly ReadinessCheck[];
  readonly readinessTimeoutMs?: number;
  /** Misconfigurations `GET /health/ready` names without answering unready, by what they concern. */
  readonly readinessWarnings?: Readonly<Record<string, string>>;
  /** Whether `GET /openapi.json` is served (`API_OPENAPI_ENABLED`); served when absent. */
  readonly openapiEnabled?: boolean;
  /** The capabilities the app serves, in order; the composition root's list when absent. */
  readonly modules?: readonly HttpModule[];
}

/** What a module's routes are built from: the server's dependencies, every module and their grant types. */
export interface ModuleContext extends ServerDeps {
  /** The capabilities the app serves, in order (composition/modules.ts, or a test's list). */
  readonly modules: readonly HttpModule[];
  /** The grant types of `POST /token` and `POST /oauth/token`: every module's `grants`, in the order of the list. */
  readonly grants: HttpGrantRegistry;
}

/** The ports every module may build on, made by the composition root before any module's own. */
export type SharedPorts = Pick<
  AuthDeps,
  "store" | "clock" | "random" | "hasher" | "deliveries" | "hooks" | "settings"
>;

/** What a module's ports are built from. */
export interface WiringContext {
  readonly config: Config;
  readonly sql: Sql;
  readonly logger: Logger;
  readonly shared: SharedPorts;
}

/**
 * One capability of the server, as the HTTP application sees it: what it adds to the app, to the
 * error-status table and to the configuration. A plain object; the app, the status table, the
 * configuration catalogue (and so docs/configuration.md) and the grant registry are loops over
 * `MODULES` (composition/modules.ts), so a new capability is a folder here and one entry in that list.
 */
export interface HttpModule {
  /** The capability's name (the folder's), unique in the list. */
  readonly name: string;
  /**
   * Its endpoints, each declared once (http/endpoint.ts): mounted in this order, described in the
   * OpenAPI description, guarded as each declares.
   */
  readonly endpoints?: readonly Endpoint<ModuleContext>[];
  /** The HTTP status of each error code it owns: one module owns a code (modules.test.ts). */
  readonly statuses?: Readonly<Partial<Record<ErrorCode, number>>>;
  /** Failures of its own that the reference answers with another status than their code's. */
  readonly failureStatuses?: Readonly<Partial<Record<FailureName, number>>>;
  /** Its configuration section: its variables, documented in docs/configuration.md in the list's order. */
  readonly section?: Section;
  /** Its part of the settings the use cases read (`AuthSettings`), derived from the configuration. */
  readonly settings?: (config: Config) => Partial<AuthSettings>;
  /** Its fields of the public `GET /settings` document (it augments `Settings` with their types). */
  readonly publicSettings?: (config: Config) => Partial<Settings>;
  /** The ports of its slices (`AuthDeps`), built from the configuration and the shared ports. */
  readonly ports?: (ctx: WiringContext) => Partial<AuthDeps>;
  /** The grant types it adds, each offered at `POST /token`, `POST /oauth/token` or both. */
  readonly grants?: readonly HttpGrant[];
}

/** An endpoint of a module (http/endpoint.ts): its operation, then its handlers built from the module's context. */
export type ModuleEndpoint = Endpoint<ModuleContext>;

/** Declares an endpoint of a module: its operation, the handlers that answer it, the guards before them. */
export const endpoint = (
  operation: Operation,
  handlers: (ctx: ModuleContext) => ReturnType<ModuleEndpoint["handlers"]>,
  guards?: EndpointGuards,
): ModuleEndpoint => declare(operation, handlers, guards);
