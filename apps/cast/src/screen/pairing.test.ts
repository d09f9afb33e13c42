// The pairing state machine: register, poll, expiry, paired, and back to a code (saying why) when the cast ends.
import { expect, test } from '@jest/globals';

import { initialPairing, nextPairing, registerRetryDelay, type PairingEvent, type PairingState } from './pairing.ts';

const payload = { castToken: 'cast_abcdefghijklmnopqrstuv', collectionID: 3, collectionKey: 'a'.repeat(43) + '=' };
const run = (events: PairingEvent[], from: PairingState = initialPairing) => events.reduce(nextPairing, from);

test('a registered code is shown, an expired one (404) is replaced by a new registration, and a payload pairs', () => {
  expect(initialPairing).toEqual({ phase: 'registering', attempt: 0 });
  const waiting = run([{ type: 'registered', code: 'ABC123' }]);
  expect(waiting).toEqual({ phase: 'waiting', code: 'ABC123', notice: undefined });
  const again = run([{ type: 'codeGone' }], waiting);
  expect(again).toEqual({ phase: 'registering', attempt: 0, notice: undefined });
  expect(run([{ type: 'registered', code: 'XYZ789' }], again)).toMatchObject({ code: 'XYZ789' });
  expect(run([{ type: 'opened', payload }], waiting)).toEqual({ phase: 'paired', payload });
});

test('a failed registration is retried later, with a growing delay and an offline notice', () => {
  const failed = run([{ type: 'registerFailed' }, { type: 'registerFailed' }]);
  expect(failed).toEqual({ phase: 'registering', attempt: 2, notice: 'offline' });
  expect(registerRetryDelay(1)).toBe(3000);
  expect(registerRetryDelay(2)).toBe(6000);
  expect(registerRetryDelay(100)).toBe(30_000);
  // Reaching the server ends the offline notice.
  expect(run([{ type: 'registered', code: 'ABC123' }], failed)).toEqual({
    phase: 'waiting',
    code: 'ABC123',
    notice: undefined,
  });
});

test('a 401 or repeated failures while casting go back to a new code, saying why', () => {
  const paired = run([
    { type: 'registered', code: 'ABC123' },
    { type: 'opened', payload },
  ]);
  const revoked = nextPairing(paired, { type: 'revoked' });
  expect(revoked).toEqual({ phase: 'registering', attempt: 0, notice: 'revoked' });
  expect(run([{ type: 'registered', code: 'NEW123' }], revoked)).toEqual({
    phase: 'waiting',
    code: 'NEW123',
    notice: 'revoked',
  });
  expect(nextPairing(paired, { type: 'failed' })).toEqual({ phase: 'registering', attempt: 0, notice: 'failed' });
});

test('a payload that does not open is a new code with its notice; events out of their phase change nothing', () => {
  const waiting = run([{ type: 'registered', code: 'ABC123' }]);
  expect(nextPairing(waiting, { type: 'unreadable' })).toEqual({
    phase: 'registering',
    attempt: 0,
    notice: 'unreadable',
  });
  const paired = run([{ type: 'opened', payload }], waiting);
  expect(nextPairing(paired, { type: 'codeGone' })).toBe(paired);
  expect(nextPairing(paired, { type: 'registered', code: 'ZZZ999' })).toBe(paired);
  expect(nextPairing(waiting, { type: 'revoked' })).toBe(waiting);
  expect(nextPairing(initialPairing, { type: 'opened', payload })).toBe(initialPairing);
});
