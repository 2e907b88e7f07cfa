/** The time source of the module, injectable so tests can move past a URL's expiry without waiting. */
export interface Clock {
  /** milliseconds since the epoch */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
