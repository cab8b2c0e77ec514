const encoder = new TextEncoder();
/** `0xff` then "solana offchain": 16 bytes no transaction can start with. */
const SIGNING_DOMAIN = new Uint8Array([0xff, ...encoder.encode("solana offchain")]);

/**
 * The off-chain message a Ledger wallet signs instead of the raw text (Solana's off-chain message
 * signing proposal, header version 0, as the reference checks it): the signing domain, version 0,
 * the application domain padded or cut to 32 bytes, format 0, one signer, its key, the message's
 * length (16-bit little-endian) and the message. Null when the message is too long to be framed.
 */
export function ledgerOffchainMessage(
  message: Uint8Array,
  signer: Uint8Array,
  domain: string,
): Uint8Array | null {
  if (message.length > 0xffff) return null;
  const out = new Uint8Array(SIGNING_DOMAIN.length + 1 + 32 + 2 + signer.length + 2 + message.length);
  let at = 0;
  out.set(SIGNING_DOMAIN, at);
  at += SIGNING_DOMAIN.length;
  out[at++] = 0; // version
  out.set(encoder.encode(domain).subarray(0, 32), at);
  at += 32;
  out[at++] = 0; // format
  out[at++] = 1; // signers
  out.set(signer, at);
  at += signer.length;
  out[at++] = message.length & 0xff;
  out[at++] = message.length >> 8;
  out.set(message, at);
  return out;
}
