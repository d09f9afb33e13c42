// Share links: what a link holds (checked with libsodium directly, not through our reader), that our
// reader opens ours and links made the way mobile makes them, every kind of broken link, and what
// /share shows at fixed times.
import { TOTP } from 'otpauth';

import { decryptBlobBytes, encryptBlobB64 } from '@ente/crypto/blob.ts';
import { fromB64UrlNoPad, toB64, toB64UrlNoPad, utf8Bytes, utf8String } from '@ente/crypto/encoding.ts';
import { generateKeyB64 } from '@ente/crypto/keys.ts';

import { emptyDisplay } from './code-uri.ts';
import {
  canShare,
  maxShareCodes,
  maxShareMinutes,
  parseSharePayload,
  readShareLink,
  shareLink,
  ShareLinkError,
  shareStateAt,
  shareWindow,
  type SharePayload,
} from './share.ts';
import type { CodeData } from './types.ts';

const secret = 'JBSWY3DPEHPK3PXP';

function codeData(fields: Partial<CodeData> = {}): CodeData {
  return {
    type: 'totp',
    issuer: 'Example',
    account: 'ada@example.org',
    secret,
    algorithm: 'sha1',
    digits: 6,
    period: 30,
    counter: 0,
    display: emptyDisplay(),
    unknownParams: [],
    ...fields,
  };
}

/** The TOTP of `secret` at `timeMs`, from the library directly (an oracle independent of otp.ts). */
function totpAt(timeMs: number, period = 30, digits = 6): string {
  return new TOTP({ secret, period, digits, algorithm: 'SHA1' }).generate({ timestamp: timeMs });
}

// 2026-03-01T12:00:17.250Z: 17.25 s into a 30 s period.
const now = Date.UTC(2026, 2, 1, 12, 0, 17, 250);
const origin = 'https://auth.example.org';

/** A link built by hand, as mobile builds one: any payload text, its own key. */
async function handMadeLink(text: string, key?: string): Promise<string> {
  const linkKey = key ?? (await generateKeyB64());
  const blob = await encryptBlobB64(utf8Bytes(text), linkKey);
  const part = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${origin}/share?data=${part(blob.encryptedData)}&header=${part(blob.header)}#${part(linkKey)}`;
}

async function failure(promise: Promise<unknown>): Promise<ShareLinkError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ShareLinkError);
  return error as ShareLinkError;
}

describe('making a link', () => {
  test('its form: <origin>/share?data=…&header=…#key, each unpadded base64url', async () => {
    const url = await shareLink(codeData(), 2, now, `${origin}/`);
    expect(url).toMatch(
      /^https:\/\/auth\.example\.org\/share\?data=[A-Za-z0-9_-]+&header=[A-Za-z0-9_-]{32}#[A-Za-z0-9_-]{43}$/,
    );
  });

  test('it decrypts with plain libsodium to the JSON of the protocol', async () => {
    const url = new URL(await shareLink(codeData(), 5, now, origin));
    const key = fromB64UrlNoPad(url.hash.slice(1));
    expect(key).toHaveLength(32);
    const blob = {
      encryptedData: toB64(fromB64UrlNoPad(url.searchParams.get('data')!)),
      header: toB64(fromB64UrlNoPad(url.searchParams.get('header')!)),
    };
    const json = JSON.parse(utf8String(await decryptBlobBytes(blob, key))) as Record<string, unknown>;

    expect(Object.keys(json).sort()).toEqual(['codes', 'startTime', 'step']);
    const start = Date.UTC(2026, 2, 1, 12, 0, 0);
    expect(json.startTime).toBe(start);
    expect(json.step).toBe(30);
    expect(typeof json.codes).toBe('string');
    const codes = (json.codes as string).split(',');
    // ceil(5 min / 30 s) + 1; see [Note: Share link length].
    expect(codes).toHaveLength(11);
    codes.forEach((code, index) => expect(code).toBe(totpAt(start + index * 30_000)));
  });

  test('each link has its own key', async () => {
    const first = new URL(await shareLink(codeData(), 2, now, origin));
    const second = new URL(await shareLink(codeData(), 2, now, origin));
    expect(first.hash).not.toBe(second.hash);
  });

  test('round trip: our reader opens our link', async () => {
    const data = codeData({ period: 60, digits: 8 });
    const payload = await readShareLink(await shareLink(data, 10, now, origin));
    const start = Date.UTC(2026, 2, 1, 12, 0, 0);
    expect(payload.startTime).toBe(start);
    expect(payload.step).toBe(60);
    expect(payload.codes).toHaveLength(11);
    expect(payload.codes[3]).toBe(totpAt(start + 3 * 60_000, 60, 8));
  });

  test('Steam codes are shared as their letters', async () => {
    const payload = await readShareLink(await shareLink(codeData({ type: 'steam', digits: 5 }), 2, now, origin));
    expect(payload.codes).toHaveLength(5);
    for (const code of payload.codes) expect(code).toMatch(/^[23456789BCDFGHJKMNPQRTVWXY]{5}$/);
  });

  test('only TOTP and Steam codes can be shared', async () => {
    expect(canShare({ type: 'totp' })).toBe(true);
    expect(canShare({ type: 'steam' })).toBe(true);
    expect(canShare({ type: 'hotp' })).toBe(false);
    await expect(shareLink(codeData({ type: 'hotp' }), 2, now, origin)).rejects.toThrow('only TOTP and Steam');
  });

  test('the window starts at the current period and lasts at least the chosen time', () => {
    for (const minutes of [2, 5, 10] as const) {
      for (const period of [10, 30, 60, 45]) {
        const { startTime, count } = shareWindow(period, minutes, now);
        expect(startTime % (period * 1000)).toBe(0);
        expect(startTime).toBeLessThanOrEqual(now);
        expect(now - startTime).toBeLessThan(period * 1000);
        const end = startTime + count * period * 1000;
        expect(end).toBeGreaterThanOrEqual(now + minutes * 60_000);
        expect(end).toBeLessThan(now + minutes * 60_000 + 2 * period * 1000);
      }
    }
  });
});

describe('reading a link', () => {
  test('a link made as mobile makes it (ceil(duration / period) codes) opens', async () => {
    const text = JSON.stringify({ startTime: 1_700_000_010_000, step: 30, codes: '123456,654321,000111,999000' });
    expect(await readShareLink(await handMadeLink(text))).toEqual({
      startTime: 1_700_000_010_000,
      step: 30,
      codes: ['123456', '654321', '000111', '999000'],
    });
  });

  test('the longest link the dialog makes opens, for any period; one code more is refused as too long', async () => {
    expect(maxShareMinutes).toBe(10);
    for (const period of [1, 7, 30, 60, 3600, 86_400]) {
      const longest = await shareLink(codeData({ period }), maxShareMinutes, now, origin);
      const { codes } = await readShareLink(longest);
      expect(codes).toHaveLength(maxShareCodes(period));
      const tooLong = JSON.stringify({ startTime: now, step: period, codes: [...codes, '123456'].join(',') });
      expect((await failure(readShareLink(await handMadeLink(tooLong)))).kind).toBe('tooLong');
    }
  });

  test('a link of a day is too long', () => {
    const day = Array.from({ length: 2880 }, () => '123456').join(',');
    expect(() => parseSharePayload(JSON.stringify({ startTime: now, step: 30, codes: day }))).toThrow(
      expect.objectContaining({ kind: 'tooLong' }),
    );
  });

  test('a URL object works as well as a string', async () => {
    const text = JSON.stringify({ startTime: 0, step: 30, codes: '123456' });
    expect((await readShareLink(new URL(await handMadeLink(text)))).codes).toEqual(['123456']);
  });

  describe('malformed links', () => {
    let good: URL;
    beforeAll(async () => {
      good = new URL(await handMadeLink(JSON.stringify({ startTime: 0, step: 30, codes: '123456' })));
    });
    const data = () => good.searchParams.get('data')!;
    const header = () => good.searchParams.get('header')!;
    const key = () => good.hash.slice(1);
    const link = (query: string, fragment: string) => `${origin}/share?${query}${fragment ? `#${fragment}` : ''}`;

    test.each([
      ['not a URL', () => 'share?data=abc'],
      ['no data', () => link(`header=${header()}`, key())],
      ['empty data', () => link(`data=&header=${header()}`, key())],
      ['no header', () => link(`data=${data()}`, key())],
      ['no key', () => link(`data=${data()}&header=${header()}`, '')],
      ['data with characters outside base64url', () => link(`data=${data()}!&header=${header()}`, key())],
      ['standard base64 instead of base64url', () => link(`data=${data()}&header=${header()}`, `${key()}+/`)],
      ['padding in the key', () => link(`data=${data()}&header=${header()}`, `${key()}=`)],
      ['a key of 31 bytes', () => link(`data=${data()}&header=${header()}`, key().slice(0, 42))],
      ['a key of 33 bytes', () => link(`data=${data()}&header=${header()}`, `${key()}AA`)],
      ['a length no base64 has', () => link(`data=${data()}&header=${header()}`, `${key()}A`)],
      ['a header of 23 bytes', () => link(`data=${data()}&header=${header().slice(0, 31)}`, key())],
      ['data shorter than a tag', () => link(`data=${data().slice(0, 20)}&header=${header()}`, key())],
    ])('%s', async (_, url) => {
      expect((await failure(readShareLink(url()))).kind).toBe('malformed');
    });
  });

  describe('links that do not open', () => {
    test('another key of the right length', async () => {
      const text = JSON.stringify({ startTime: 0, step: 30, codes: '123456' });
      const url = new URL(await handMadeLink(text));
      url.hash = toB64UrlNoPad(new Uint8Array(32).fill(7));
      expect((await failure(readShareLink(url))).kind).toBe('undecryptable');
    });

    test('data changed on the way', async () => {
      const url = new URL(await handMadeLink(JSON.stringify({ startTime: 0, step: 30, codes: '123456' })));
      const data = url.searchParams.get('data')!;
      url.searchParams.set('data', (data[0] === 'A' ? 'B' : 'A') + data.slice(1));
      expect((await failure(readShareLink(url))).kind).toBe('undecryptable');
    });

    test('the header of another link', async () => {
      const one = new URL(await handMadeLink('"a"'));
      const other = new URL(await handMadeLink('"b"'));
      one.searchParams.set('header', other.searchParams.get('header')!);
      expect((await failure(readShareLink(one))).kind).toBe('undecryptable');
    });
  });

  describe('links that open but hold no codes', () => {
    test.each([
      ['not JSON', 'hello'],
      ['a JSON string', '"otpauth://totp/x?secret=JBSWY3DP"'],
      ['an array', '[1,2,3]'],
      ['no codes', '{"startTime":0,"step":30}'],
      ['codes as a list', '{"startTime":0,"step":30,"codes":["123456"]}'],
      ['empty codes', '{"startTime":0,"step":30,"codes":""}'],
      ['an empty code in the list', '{"startTime":0,"step":30,"codes":"123456,,654321"}'],
      ['a code with a space', '{"startTime":0,"step":30,"codes":"123 456"}'],
      ['startTime as text', '{"startTime":"0","step":30,"codes":"123456"}'],
      ['a fractional startTime', '{"startTime":1.5,"step":30,"codes":"123456"}'],
      ['a negative startTime', '{"startTime":-30000,"step":30,"codes":"123456"}'],
      ['no step', '{"startTime":0,"codes":"123456"}'],
      ['step 0', '{"startTime":0,"step":0,"codes":"123456"}'],
      ['a fractional step', '{"startTime":0,"step":0.5,"codes":"123456"}'],
    ])('%s', async (_, text) => {
      expect((await failure(readShareLink(await handMadeLink(text)))).kind).toBe('badPayload');
    });

    test('parseSharePayload accepts extra fields and letters (Steam)', () => {
      expect(parseSharePayload('{"startTime":0,"step":30,"codes":"BCD2F,XY34Z","v":2}')).toEqual({
        startTime: 0,
        step: 30,
        codes: ['BCD2F', 'XY34Z'],
      });
    });
  });
});

describe('what /share shows', () => {
  const payload: SharePayload = { startTime: 1_000_000, step: 30, codes: ['111111', '222222', '333333'] };

  test('before the first code: out of sync', () => {
    expect(shareStateAt(payload, 999_999)).toEqual({ kind: 'early' });
    expect(shareStateAt(payload, 0)).toEqual({ kind: 'early' });
  });

  test('at the start: the first code, the second next', () => {
    expect(shareStateAt(payload, 1_000_000)).toEqual({
      kind: 'active',
      current: '111111',
      next: '222222',
      remainingMs: 30_000,
      expiresInMs: 90_000,
    });
  });

  test('codes[floor((now − startTime) / 1000 / step)] at each boundary', () => {
    expect(shareStateAt(payload, 1_029_999)).toMatchObject({ current: '111111', next: '222222', remainingMs: 1 });
    expect(shareStateAt(payload, 1_030_000)).toMatchObject({ current: '222222', next: '333333', remainingMs: 30_000 });
    expect(shareStateAt(payload, 1_045_500)).toMatchObject({
      current: '222222',
      remainingMs: 14_500,
      expiresInMs: 44_500,
    });
  });

  test('the last code has no next one', () => {
    expect(shareStateAt(payload, 1_060_000)).toMatchObject({ current: '333333', next: undefined, expiresInMs: 30_000 });
    expect(shareStateAt(payload, 1_089_999)).toMatchObject({ current: '333333', expiresInMs: 1 });
  });

  test('after the last code: expired', () => {
    expect(shareStateAt(payload, 1_090_000)).toEqual({ kind: 'expired' });
    expect(shareStateAt(payload, 9_000_000)).toEqual({ kind: 'expired' });
  });

  test('a link we make shows the code of the moment for the whole chosen time', async () => {
    const data = codeData();
    const link = await readShareLink(await shareLink(data, 2, now, origin));
    const lastPeriodStart = link.startTime + (link.codes.length - 1) * 30_000;
    for (let t = now; t <= now + 2 * 60_000; t += 7_000) {
      const next = t < lastPeriodStart ? totpAt(t + 30_000) : undefined;
      expect(shareStateAt(link, t)).toMatchObject({ kind: 'active', current: totpAt(t), next });
    }
  });
});
