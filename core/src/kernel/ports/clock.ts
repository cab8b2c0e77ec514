/** The current time; injected so tests can fix and move it. */
export interface Clock {
  /** The current instant (a new `Date` each call). */
  now(): Date;
}
