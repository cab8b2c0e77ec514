/**
 * The few messages of PostgreSQL's wire protocol (v3) the embedded server reads or writes itself: the
 * type bytes it schedules clients' units by, the startup requests it answers, and the messages it sends
 * on a client's behalf or before closing one.
 */
export const SSL_REQUEST = 80877103;
export const GSSENC_REQUEST = 80877104;
export const CANCEL_REQUEST = 80877102;
export const SYNC = 0x53; // 'S'
export const QUERY = 0x51; // 'Q'
export const FLUSH = 0x48; // 'H'
export const TERMINATE = 0x58; // 'X'
export const STARTUP = 0; // marker for the startup packet, which has no type byte
export const ERROR_RESPONSE = 0x45; // 'E'

/**
 * An ErrorResponse of severity FATAL, what PostgreSQL sends before it closes a session. A client sees
 * the error first and the close after, so it may still act on the error (roll back, retry) on a socket
 * that is about to go: a plain close never shows it that window.
 */
export function fatal(sqlstate: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${sqlstate}\0M${message}\0\0`);
  const header = Buffer.alloc(5);
  header[0] = ERROR_RESPONSE;
  header.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([header, fields]);
}

export const ADMIN_SHUTDOWN = fatal("57P01", "terminating connection due to administrator command");
export const CANNOT_CONNECT_NOW = fatal("57P03", "the database system is starting up");
export const AUTHENTICATION_FAILED = fatal("28P01", "password authentication failed");

export function query(text: string): Buffer {
  const body = Buffer.from(`${text}\0`);
  const header = Buffer.alloc(5);
  header[0] = QUERY;
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}

// Sent on behalf of a client that vanished while owning the backend. The first ROLLBACK aborts an
// explicit block, or an implicit extended-protocol transaction (which a bare Sync would COMMIT); if the
// backend is skipping messages after an error, Sync ends that and the second ROLLBACK ends the block.
export const ABANDON = Buffer.concat([query("rollback"), Buffer.from([SYNC, 0, 0, 0, 4]), query("rollback")]);
