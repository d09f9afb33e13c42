// The schemas hold the protocol's rules: decoded sizes of b64 fields, e-mail normalisation, the diff
// limit, the always-present strings of the verification answer, unknown fields ignored.
import { describe, expect, test } from '@jest/globals';

import {
  b64,
  decodedLength,
  emailAddressProblem,
  emailAuthorizationResponseSchema,
  entityDiffQuerySchema,
  keyAttributesSchema,
  sendOttRequestSchema,
  srpCreateSessionRequestSchema,
  updateEntityRequestSchema,
  verifyEmailRequestSchema,
} from './index.ts';

const bytes = (n: number) => Buffer.alloc(n, 7).toString('base64');

describe('b64 sizes', () => {
  test('decodedLength counts padding', () => {
    expect(decodedLength(bytes(16))).toBe(16);
    expect(decodedLength(bytes(32))).toBe(32);
    expect(decodedLength(bytes(512))).toBe(512);
  });
  test('exact sizes and strict alphabet', () => {
    expect(b64(24).safeParse(bytes(24)).success).toBe(true);
    expect(b64(24).safeParse(bytes(23)).success).toBe(false);
    expect(b64().safeParse('ab-_').success).toBe(false);
    expect(b64().safeParse('abc').success).toBe(false);
  });
  test('srpA must be 512 bytes', () => {
    const srpUserID = '00000000-0000-4000-8000-000000000000';
    expect(srpCreateSessionRequestSchema.safeParse({ srpUserID, srpA: bytes(512) }).success).toBe(true);
    const short = srpCreateSessionRequestSchema.safeParse({ srpUserID, srpA: bytes(511) });
    expect(short.success).toBe(false);
    expect(short.error?.issues[0]?.path).toEqual(['srpA']);
  });
});

describe('requests', () => {
  test('e-mails are trimmed and lower-cased; an empty one is refused', () => {
    expect(sendOttRequestSchema.parse({ email: '  Alice@Example.ORG ', purpose: 'login' })).toEqual({
      email: 'alice@example.org',
      purpose: 'login',
    });
    expect(sendOttRequestSchema.parse({ email: 'a@b.co', purpose: '' }).purpose).toBeUndefined();
    expect(sendOttRequestSchema.safeParse({ email: '   ' }).success).toBe(false);
  });
  test('e-mails must be deliverable on the internet: a dotted host name with a letter TLD, no IP, no local name', () => {
    const accepted = [
      'name@example.org',
      'a.b+tag@mail.example.co.uk',
      'x@xn--bcher-kva.de',
      'x@sub-domain.example.com',
      'zoë@exämple.org',
      'x@例え.jp',
      'x@1.2.3.example.net',
      'x@example.xn--p1ai',
    ];
    const refused = [
      'x@localhost',
      'x@[127.0.0.1]',
      'x@127.0.0.1',
      'x@[ipv6:::1]',
      'x@mailserver',
      'x@example.123',
      'x@printer.local',
      'x@box.localhost',
      'x@site.test',
      'x@host.invalid',
      'x@-bad.example.org',
      'x@bad-.example.org',
      'x@a..example.org',
      'x@example.org.',
      'x@.example.org',
      'x@under_score.example.org',
      'x@example.c',
      `x@${'a'.repeat(64)}.example.org`,
    ];
    for (const address of accepted) {
      expect([address, sendOttRequestSchema.safeParse({ email: address }).success]).toEqual([address, true]);
      expect(emailAddressProblem(address)).toBeUndefined();
    }
    for (const address of refused) {
      const result = sendOttRequestSchema.safeParse({ email: address });
      expect([address, result.success]).toEqual([address, false]);
      expect(result.error?.issues[0]?.message).toMatch(/internet domain/);
      expect(emailAddressProblem(address)).toBe('domain');
    }
    expect(emailAddressProblem('')).toBe('empty');
    expect(emailAddressProblem('no-at-sign')).toBe('form');
    expect(emailAddressProblem('a b@example.org')).toBe('form');
  });
  test('codes lose their spaces and must be six digits', () => {
    expect(verifyEmailRequestSchema.parse({ email: 'a@b.co', ott: ' 012 345 ' }).ott).toBe('012345');
    expect(verifyEmailRequestSchema.safeParse({ email: 'a@b.co', ott: '12345' }).success).toBe(false);
  });
  test('diff: both parameters required, limit 1..5000', () => {
    expect(entityDiffQuerySchema.parse({ sinceTime: '0', limit: '2500' })).toEqual({ sinceTime: 0, limit: 2500 });
    for (const query of [
      { sinceTime: '0' },
      { limit: '1' },
      { sinceTime: '0', limit: '0' },
      { sinceTime: '0', limit: '5001' },
    ]) {
      expect(entityDiffQuerySchema.safeParse(query).success).toBe(false);
    }
  });
  test('key attributes: recovery fields may be "" or absent; unknown fields are dropped', () => {
    const attributes = {
      kekSalt: bytes(16),
      opsLimit: 16,
      memLimit: 268435456,
      encryptedKey: bytes(48),
      keyDecryptionNonce: bytes(24),
      publicKey: bytes(32),
      encryptedSecretKey: bytes(48),
      secretKeyDecryptionNonce: bytes(24),
      masterKeyEncryptedWithRecoveryKey: '',
      somethingNew: true,
    };
    const parsed = keyAttributesSchema.parse(attributes);
    expect(parsed.masterKeyEncryptedWithRecoveryKey).toBe('');
    expect('somethingNew' in parsed).toBe(false);
    expect(keyAttributesSchema.safeParse({ ...attributes, publicKey: bytes(31) }).success).toBe(false);
  });
  test('ifUpdatedAt is optional and an integer', () => {
    const body = { id: '00000000-0000-4000-8000-000000000000', encryptedData: bytes(40), header: bytes(24) };
    expect(updateEntityRequestSchema.safeParse(body).success).toBe(true);
    expect(updateEntityRequestSchema.safeParse({ ...body, ifUpdatedAt: 1.5 }).success).toBe(false);
  });
});

describe('responses', () => {
  test('the four session strings of a verification answer are required', () => {
    const answer = {
      id: 1,
      token: 't',
      passkeySessionID: '',
      accountsUrl: '',
      twoFactorSessionID: '',
      twoFactorSessionIDV2: '',
    };
    expect(emailAuthorizationResponseSchema.safeParse(answer).success).toBe(true);
    const { accountsUrl: _omitted, ...withoutAccountsUrl } = answer;
    expect(emailAuthorizationResponseSchema.safeParse(withoutAccountsUrl).success).toBe(false);
  });
});
