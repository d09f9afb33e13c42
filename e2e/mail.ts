// E-mail codes as the tests receive them: the local server has no SMTP settings, so instead of
// mailing a code it logs "Skipping sending email to <address>: Verification code: NNNNNN"
// (docs/protocol.md#e-mail-code-rules), and global setup writes the server's output to serverLogPath.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { expect } from '@playwright/test';

/** Where global setup writes the server's output (the whole run's; Playwright empties the folder first). */
export const serverLogPath = path.join(import.meta.dirname, 'test-results', 'server.log');

export async function serverLog(): Promise<string> {
  return readFile(serverLogPath, 'utf8');
}

/** Every code mailed to `email` so far, oldest first. */
export async function codesSentTo(email: string): Promise<string[]> {
  const address = email
    .trim()
    .toLowerCase()
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`Skipping sending email to ${address}: Verification code: (\\d{6})`, 'g');
  return Array.from((await serverLog()).matchAll(pattern), (match) => match[1] ?? '');
}

/**
 * The codes mailed to one address from now on: open it before the action that sends a code, then
 * `nextCode()` waits for that code (and each later call for the one after).
 */
export class Inbox {
  private constructor(
    readonly email: string,
    private seen: number,
  ) {}

  static async open(email: string): Promise<Inbox> {
    return new Inbox(email, (await codesSentTo(email)).length);
  }

  async nextCode(timeout = 10_000): Promise<string> {
    let codes: string[] = [];
    await expect
      .poll(async () => (codes = await codesSentTo(this.email)).length, {
        message: `a code mailed to ${this.email}`,
        timeout,
      })
      .toBeGreaterThan(this.seen);
    const code = codes[this.seen] ?? '';
    this.seen += 1;
    return code;
  }
}
