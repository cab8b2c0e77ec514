import { type LookupAddress, type LookupAllOptions, lookup } from "node:dns";
import { addressRefusal, type OutboundPolicy } from "./address-policy.js";

/** A refused outbound connection: the name resolved (or was) an address the policy forbids. */
export class OutboundRefused extends Error {
  override readonly name = "OutboundRefused";
  readonly code = "EOUTBOUNDREFUSED";
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** Every address `hostname` resolves to; refused when any of them is forbidden by `policy`. */
export function resolveAllowed(hostname: string, policy: OutboundPolicy): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(hostname, { all: true, verbatim: true } satisfies LookupAllOptions, (error, addresses) => {
      if (error) return reject(error);
      if (addresses.length === 0) return reject(new OutboundRefused(`${hostname} does not resolve`));
      for (const { address } of addresses) {
        const refusal = addressRefusal(address, policy);
        if (refusal !== null) return reject(new OutboundRefused(`${hostname}: ${refusal}`));
      }
      resolve(addresses);
    });
  });
}

/**
 * A `lookup` for `net.connect` / `tls.connect` that only hands out allowed addresses: the socket
 * connects to an address this very lookup checked, so a name cannot resolve to a public address
 * for the check and to a private one for the connection (DNS rebinding).
 */
export function guardedLookup(policy: OutboundPolicy) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback) => {
    resolveAllowed(hostname, policy).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const fitting = addresses.filter((a) => wanted === 0 || a.family === wanted);
        if (fitting.length === 0) {
          callback(new OutboundRefused(`${hostname} has no IPv${wanted} address`), []);
        } else if (options.all) {
          callback(null, fitting);
        } else {
          const [first] = fitting;
          callback(null, first?.address ?? "", first?.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}
