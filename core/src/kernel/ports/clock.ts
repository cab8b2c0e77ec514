/** The current time; injected so tests can fix and move it. */
export interface Clock {
  now(): Date;
}
