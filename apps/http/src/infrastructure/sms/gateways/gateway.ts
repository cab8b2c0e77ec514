import type { SmsSender } from "@authsvc/core/messaging";
import type { Kind } from "../../../config/kinds.js";
import * as k from "../../../config/kinds.js";
import { defineVariables, PREFIX, type Variable } from "../../../config/variable.js";

/**
 * One SMS gateway `SMS_PROVIDER` can select: its variables (its credentials, required when it is
 * selected, and its base URL) and how its sender is built from their values. The gateways are the list
 * in index.ts, so a new gateway is an adapter, a file here and one entry there.
 */
export interface SmsGateway {
  /** The value of `SMS_PROVIDER` that selects it. */
  readonly id: string;
  readonly variables: Readonly<Record<string, Variable<unknown>>>;
  /** Its sender, from the values of `variables` (every credential present: the loader required them). */
  sender(values: never): SmsSender;
}

/** A variable the gateway cannot work without: required when `SMS_PROVIDER` selects it. */
export type Credential<T> = Variable<T> & { readonly required: `when ${string}` };

/** The values a gateway's sender gets: its credentials always, the rest when set. */
export type GatewayValues<V> = {
  readonly [K in keyof V]: V[K] extends Credential<infer T>
    ? T
    : V[K] extends Variable<infer T>
      ? T | undefined
      : never;
};

const variable = defineVariables("SMS gateways");

/** A credential of gateway `id`. */
export function credential<T>(id: string, key: string, kind: Kind<T>, description: string): Credential<T> {
  return variable({
    key,
    kind,
    required: `when ${PREFIX}SMS_PROVIDER is ${id}`,
    description,
  }) as Credential<T>;
}

/** An optional setting of a gateway. */
export const option = <T>(key: string, kind: Kind<T>, description: string): Variable<T> =>
  variable({ key, kind, description });

/** The gateway's API base URL; its public API unless set (tests point it at a fake). */
export const baseUrl = (id: string): Variable<string> =>
  variable({
    key: `SMS_${id.toUpperCase()}_BASE_URL`,
    kind: k.url,
    computedDefault: "the gateway's public API",
    description: `Base URL of the ${id} API (tests point it at a fake).`,
  });

/** Keeps the link between a gateway's variables and its sender's argument, then erases it for the list. */
export function defineGateway<V extends Readonly<Record<string, Variable<unknown>>>>(
  id: string,
  variables: V,
  sender: (values: GatewayValues<V>) => SmsSender,
): SmsGateway {
  return { id, variables, sender: sender as (values: never) => SmsSender };
}
