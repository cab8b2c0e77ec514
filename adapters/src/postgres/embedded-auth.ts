import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Password authentication for the embedded server's clients, done by the multiplexer: PGlite trusts
 * whoever speaks to it, and any local user can reach a loopback port. PostgreSQL's MD5 exchange
 * (a fresh salt per connection, so a recorded exchange cannot be replayed) is enough here: the
 * password is random per start and long, so an exchange seen cannot be guessed back to it either.
 * postgres.js answers it with the password in the URL.
 */

const AUTHENTICATION = 0x52; // 'R'
const AUTHENTICATION_MD5 = 5;
/** The client's answer to an authentication request. */
export const PASSWORD_MESSAGE = 0x70; // 'p'

/**
 * The longest PasswordMessage taken from a client that has not yet given the password (its length
 * field, which counts itself): an MD5 answer takes 40. PostgreSQL refuses an authentication packet
 * over 1,000 bytes as well; without a bound, an unauthenticated local client could make the server
 * hold whatever it declares (up to 2 GiB) while it trickles.
 */
export const MAX_PASSWORD_MESSAGE_LENGTH = 1_000;

/**
 * How long a client may take from connecting to having given the password, as PostgreSQL's
 * `authentication_timeout` (60 s there): a local client cannot keep sockets open without it.
 */
export const AUTHENTICATION_TIMEOUT_MS = 10_000;

/** The `user` parameter of a startup packet (length, protocol version, then key\0value\0 pairs). */
export function startupUser(packet: Buffer): string {
  const fields = packet.subarray(8).toString("utf8").split("\0");
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === "user") return fields[i + 1] ?? "";
  return "";
}

/** A fresh salt and the AuthenticationMD5Password message that carries it. */
export function md5Challenge(): { salt: Buffer; message: Buffer } {
  const salt = randomBytes(4);
  const message = Buffer.alloc(13);
  message[0] = AUTHENTICATION;
  message.writeInt32BE(12, 1);
  message.writeInt32BE(AUTHENTICATION_MD5, 5);
  salt.copy(message, 9);
  return { salt, message };
}

const md5 = (data: Buffer | string) => createHash("md5").update(data).digest("hex");

/**
 * Whether the PasswordMessage `message` (type byte included) answers the challenge `salt` for
 * `user` with `password`: "md5" + md5(md5(password + user) + salt), compared in constant time.
 */
export function md5Answers(message: Buffer, user: string, password: string, salt: Buffer): boolean {
  const sent = message.subarray(5, message.length - 1); // without the header and the final NUL
  const inner = md5(password + user);
  const expected = Buffer.from(`md5${md5(Buffer.concat([Buffer.from(inner), salt]))}`);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}
