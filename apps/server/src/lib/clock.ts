// Time in integer microseconds (docs/protocol.md#conventions), behind an interface so tests can move time forward
// (code expiry, token idle limit, TOTP steps) without waiting.

export interface Clock {
  nowMicros(): number;
}

export const systemClock: Clock = { nowMicros: () => Date.now() * 1000 };

export const MICROS_PER_SECOND = 1_000_000;
export const MICROS_PER_MINUTE = 60 * MICROS_PER_SECOND;
export const MICROS_PER_HOUR = 60 * MICROS_PER_MINUTE;
export const MICROS_PER_DAY = 24 * MICROS_PER_HOUR;

/** A clock that only moves when told to; starts at the real time. */
export class ManualClock implements Clock {
  private now = Date.now() * 1000;
  nowMicros(): number {
    return this.now;
  }
  advance(micros: number): void {
    this.now += micros;
  }
}
