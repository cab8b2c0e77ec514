/** Which proxies in front of the server are believed when they append to `X-Forwarded-For`. */
export interface ProxyTrust {
  /** The first this many hops from the server (`API_TRUSTED_PROXY_HOPS`). */
  readonly hops: number;
  /** Any hop whose address is in these ranges (`API_TRUSTED_PROXIES`). */
  readonly isTrusted: (address: string) => boolean;
}

/** No proxy trusted: the connection's peer is the client. */
export const NO_PROXY: ProxyTrust = { hops: 0, isTrusted: () => false };
