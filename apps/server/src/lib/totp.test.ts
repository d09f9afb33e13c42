// RFC 6238/4226 vectors (docs/protocol.md#test-vectors) for the server's TOTP, and the base32 round trip.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { base32Decode, base32Encode, isValidTotp, randomSixDigits, totpAt } from './totp.ts';

const rfcSecret = base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');

test('RFC 6238 SHA-1 vectors, 6 and 8 digits', () => {
  assert.equal(totpAt(rfcSecret, 59, 8), '94287082');
  assert.equal(totpAt(rfcSecret, 59), '287082');
  assert.equal(totpAt(rfcSecret, 1111111109), '081804');
  assert.equal(totpAt(rfcSecret, 1234567890), '005924');
  assert.equal(totpAt(rfcSecret, 2000000000), '279037');
});

test('one step of drift either way, not two', () => {
  const code = totpAt(rfcSecret, 1234567890);
  assert.equal(isValidTotp(rfcSecret, code, 1234567890 + 30), true);
  assert.equal(isValidTotp(rfcSecret, code, 1234567890 - 30), true);
  assert.equal(isValidTotp(rfcSecret, code, 1234567890 + 60), false);
  assert.equal(isValidTotp(rfcSecret, '000000', 1234567890), false);
});

test('base32 of 20 bytes is 32 characters and round-trips', () => {
  const bytes = Uint8Array.from({ length: 20 }, (_, i) => i * 13);
  const text = base32Encode(bytes);
  assert.match(text, /^[A-Z2-7]{32}$/);
  assert.deepEqual(base32Decode(text), bytes);
  assert.equal(base32Encode(new TextEncoder().encode('12345678901234567890')), 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
});

test('e-mail codes are six digits, zero-padded', () => {
  // A tenth of codes are below 100000: 200 draws all but surely include some.
  for (let i = 0; i < 200; i++) assert.match(randomSixDigits(), /^\d{6}$/);
});
