// The test's authenticator app: TOTP codes (SHA-1, 6 digits, 30 s: docs/protocol.md#two-factor) for the
// secret the two-factor setup page shows, computed with otpauth.
import { Secret, TOTP } from 'otpauth';

const periodMs = 30_000;

export class Authenticator {
  private readonly totp: TOTP;
  /** Time steps whose code this test already sent: the server accepts each code once per user. */
  private readonly usedSteps = new Set<number>();

  /** `secret`: the base32 text, as shown (spaces and case do not matter). */
  constructor(secret: string) {
    this.totp = new TOTP({
      algorithm: 'SHA1',
      digits: 6,
      period: periodMs / 1000,
      secret: Secret.fromBase32(secret.replace(/\s+/g, '').toUpperCase()),
    });
  }

  /**
   * A code the server has not seen yet: the current step's, else the next step's (the server accepts
   * one step either side), else the one after that once the clock has moved on.
   */
  async nextCode(): Promise<string> {
    for (;;) {
      const current = Math.floor(Date.now() / periodMs);
      const step = [current, current + 1].find((candidate) => !this.usedSteps.has(candidate));
      if (step !== undefined) {
        this.usedSteps.add(step);
        return this.totp.generate({ timestamp: step * periodMs });
      }
      await new Promise((resolve) => setTimeout(resolve, (current + 1) * periodMs - Date.now() + 50));
    }
  }
}

/** The key bytes a base32 secret stands for. */
export function base32Bytes(secret: string): Uint8Array {
  return Secret.fromBase32(secret.replace(/\s+/g, '').toUpperCase()).bytes;
}
