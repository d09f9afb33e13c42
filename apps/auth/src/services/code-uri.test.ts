import { readFileSync } from 'node:fs';
import path from 'node:path';

import fc from 'fast-check';

import { base32Encode } from './base32.ts';
import {
  CodeParseError,
  codeURI,
  emptyDisplay,
  normalisedSecret,
  parseCodeURI,
  type ParseErrorKey,
} from './code-uri.ts';
import type { CodeData, CodeDisplay } from './types.ts';

const S = 'JBSWY3DPEHPK3PXP';

function errorKeyOf(uri: string): string | undefined {
  try {
    parseCodeURI(uri);
    return undefined;
  } catch (error) {
    if (error instanceof CodeParseError) return error.errorKey;
    throw error;
  }
}

/** A URI and what reading it must give: part of the code, or the error. */
type Row = [description: string, uri: string, expected: Partial<CodeData> | ParseErrorKey];

const rows: Row[] = [
  // The basics and the defaults.
  [
    'defaults when only the secret is given',
    `otpauth://totp/ACME:me?secret=${S}`,
    {
      type: 'totp',
      issuer: 'ACME',
      account: 'me',
      secret: S,
      algorithm: 'sha1',
      digits: 6,
      period: 30,
      counter: 0,
      display: emptyDisplay(),
      unknownParams: [],
    },
  ],
  [
    'every parameter',
    `otpauth://totp/ACME:me?algorithm=SHA256&digits=8&issuer=ACME&period=60&secret=${S}`,
    {
      algorithm: 'sha256',
      digits: 8,
      period: 60,
    },
  ],
  [
    'the account keeps its case (Ente web lower-cased it)',
    `otpauth://totp/ACME:John.Doe@Example.COM?secret=${S}&issuer=ACME`,
    {
      issuer: 'ACME',
      account: 'John.Doe@Example.COM',
    },
  ],
  ['scheme and type in any case', `OTPAUTH://TOTP/ACME:Me?secret=${S}`, { type: 'totp', account: 'Me' }],
  ['white space around the URI', `  otpauth://totp/ACME:me?secret=${S}\n`, { account: 'me' }],
  ['one slash only', `otpauth:/totp/ACME:me?secret=${S}`, { type: 'totp', issuer: 'ACME' }],
  ['no label', `otpauth://totp?secret=${S}&issuer=ACME`, { issuer: 'ACME', account: '' }],
  // Labels and issuers.
  [
    'an encoded label',
    `otpauth://totp/ACME%20Co:john%40example.com?secret=${S}&issuer=ACME%20Co`,
    {
      issuer: 'ACME Co',
      account: 'john@example.com',
    },
  ],
  [
    'an encoded colon in the label',
    `otpauth://totp/Long%3APeriod?secret=${S}&issuer=Long&period=60`,
    {
      issuer: 'Long',
      account: 'Period',
      period: 60,
    },
  ],
  [
    'no issuer parameter: the part before the colon',
    `otpauth://totp/GitHub:alice?secret=${S}`,
    {
      issuer: 'GitHub',
      account: 'alice',
    },
  ],
  [
    'no issuer parameter, no colon: the part before "-" (Ente web)',
    `otpauth://totp/GitHub-alice?secret=${S}`,
    {
      issuer: 'GitHub',
      account: 'GitHub-alice',
    },
  ],
  [
    'no issuer parameter, no colon, no dash: the whole label',
    `otpauth://totp/alice@example.com?secret=${S}`,
    {
      issuer: 'alice@example.com',
      account: 'alice@example.com',
    },
  ],
  [
    'issuer parameter and no colon: the whole label is the account (mobile)',
    `otpauth://totp/alice?secret=${S}&issuer=GitHub`,
    {
      issuer: 'GitHub',
      account: 'alice',
    },
  ],
  [
    'issuer conflict: the parameter wins, the label gives the account',
    `otpauth://totp/Google:alice?secret=${S}&issuer=Google%20Inc`,
    {
      issuer: 'Google Inc',
      account: 'alice',
    },
  ],
  [
    'an issuer with a colon, encoded',
    `otpauth://totp/Corp%3A%20EU:bob?secret=${S}&issuer=Corp%3A%20EU`,
    {
      issuer: 'Corp: EU',
      account: 'bob',
    },
  ],
  ['an issuer with a colon, raw', `otpauth://totp/a:b:c?issuer=a:b&secret=${S}`, { issuer: 'a:b', account: 'c' }],
  ['an account with a colon', `otpauth://totp/ACME:x:y?issuer=ACME&secret=${S}`, { issuer: 'ACME', account: 'x:y' }],
  [
    'empty issuer parameter without "=" (Ente exports)',
    `otpauth://totp/:accountname?algorithm=SHA1&digits=6&issuer&period=30&secret=jcxjjxjxjcjxnnn`,
    {
      issuer: '',
      account: 'accountname',
      secret: 'JCXJJXJXJCJXNNN',
    },
  ],
  [
    'empty issuer parameter: the label names the issuer',
    `otpauth://totp/Foo:bar?issuer=&secret=${S}`,
    {
      issuer: 'Foo',
      account: 'bar',
    },
  ],
  [
    '"+" is a space in the query, a plus in the label',
    `otpauth://totp/Air+Canada:a+b?issuer=Air+Canada&secret=${S}`,
    {
      issuer: 'Air Canada',
      account: 'a+b',
    },
  ],
  ['a stray "%" stays', `otpauth://totp/ACME:100%?issuer=ACME&secret=${S}`, { account: '100%' }],
  [
    'CJK, encoded',
    `otpauth://totp/%E9%93%B6%E8%A1%8C:%E5%BC%A0%E4%B8%89?secret=${S}&issuer=%E9%93%B6%E8%A1%8C`,
    {
      issuer: '银行',
      account: '张三',
    },
  ],
  ['CJK and emoji, raw', `otpauth://totp/銀行:山田🙂?secret=${S}`, { issuer: '銀行', account: '山田🙂' }],
  // Legacy quirks.
  [
    'a bare "#" in the account (legacy)',
    `otpauth://totp/ACME:me#1?secret=${S}&issuer=ACME`,
    {
      account: 'me#1',
      secret: S,
    },
  ],
  [
    'a bare "#" in the issuer parameter',
    `otpauth://totp/A#B:me?secret=${S}&issuer=A#B`,
    { issuer: 'A#B', account: 'me' },
  ],
  ['an encoded "#"', `otpauth://totp/ACME:me%231?secret=${S}&issuer=ACME`, { account: 'me#1' }],
  ['issuer ending in "period=30" (legacy)', `otpauth://totp/Foo:me?secret=${S}&issuer=Fooperiod=30`, { issuer: 'Foo' }],
  [
    'issuer ending in "&period=45" (legacy)',
    `otpauth://totp/Foo:me?secret=${S}&issuer=Foo%26period%3D45`,
    {
      issuer: 'Foo',
      period: 30,
    },
  ],
  ['issuer ending in "period" (legacy)', `otpauth://totp/Foo:me?secret=${S}&issuer=Fooperiod`, { issuer: 'Foo' }],
  [
    '"period" after a space is a word, kept',
    `otpauth://totp/me?secret=${S}&issuer=Trial+period`,
    { issuer: 'Trial period' },
  ],
  [
    '"period" kept when the label repeats the issuer',
    `otpauth://totp/Superperiod:me?secret=${S}&issuer=Superperiod`,
    {
      issuer: 'Superperiod',
    },
  ],
  [
    '"Algorithm.sha256" (legacy mobile)',
    `otpauth://totp/A:b?secret=${S}&algorithm=Algorithm.sha256`,
    { algorithm: 'sha256' },
  ],
  ['lower-case algorithm', `otpauth://totp/A:b?secret=${S}&algorithm=sha512`, { algorithm: 'sha512' }],
  ['"SHA-256"', `otpauth://totp/A:b?secret=${S}&algorithm=SHA-256`, { algorithm: 'sha256' }],
  // HOTP.
  [
    'HOTP honours digits, algorithm and counter',
    `otpauth://hotp/WWE:Mason?secret=5VAML3X35THCEBVRLV24CGBKOY&issuer=WWE&algorithm=SHA512&digits=8&counter=10300`,
    {
      type: 'hotp',
      digits: 8,
      algorithm: 'sha512',
      counter: 10300,
    },
  ],
  ['HOTP without a counter starts at 0', `otpauth://hotp/A:b?secret=${S}`, { type: 'hotp', counter: 0 }],
  [
    'a counter on a TOTP code is not ours: kept as it was',
    `otpauth://totp/A:b?secret=${S}&counter=5`,
    {
      counter: 0,
      unknownParams: [['counter', '5']],
    },
  ],
  // Steam dialects.
  ['Steam host', `otpauth://steam/Steam:me?secret=${S}`, { type: 'steam', digits: 5, period: 30, algorithm: 'sha1' }],
  [
    'Steam by issuer parameter on a TOTP URI (mobile)',
    `otpauth://totp/Steam:me?secret=${S}&issuer=Steam`,
    {
      type: 'steam',
      digits: 5,
    },
  ],
  [
    'Steam by issuer in the label, any case',
    `otpauth://totp/STEAM:me?secret=${S}&digits=6`,
    { type: 'steam', digits: 5 },
  ],
  [
    'Steam by encoder=steam (KeePassXC), kept',
    `otpauth://totp/Valve:me?secret=${S}&issuer=Valve&encoder=steam&digits=5`,
    {
      type: 'steam',
      issuer: 'Valve',
      unknownParams: [['encoder', 'steam']],
    },
  ],
  [
    'steam://SECRET (Bitwarden, Proton)',
    `steam://${S}`,
    {
      type: 'steam',
      issuer: 'Steam',
      account: '',
      secret: S,
      digits: 5,
    },
  ],
  [
    'Steam ignores other digits, periods and algorithms',
    `otpauth://steam/Valve:me?secret=${S}&digits=8&period=60&algorithm=SHA512`,
    {
      digits: 5,
      period: 30,
      algorithm: 'sha1',
      unknownParams: [],
    },
  ],
  [
    'HOTP with issuer Steam stays HOTP',
    `otpauth://hotp/Steam:me?secret=${S}&issuer=Steam`,
    { type: 'hotp', digits: 6 },
  ],
  // Secrets.
  [
    'secret with spaces, padding, lower case',
    `otpauth://totp/A:b?secret=jbsw+y3dp%20ehpk+3pxp%3D%3D%3D%3D`,
    { secret: S },
  ],
  [
    'a secret of a non-canonical length (hand-typed, accepted)',
    `otpauth://steam/X:y?secret=DJDJDJHDJDHFHHFHF`,
    {
      secret: 'DJDJDJHDJDHFHHFHF',
    },
  ],
  [
    'the last of two secrets counts; the first is kept',
    `otpauth://totp/A:b?secret=AAAAAAAA&secret=${S}`,
    {
      secret: S,
      unknownParams: [['secret', 'AAAAAAAA']],
    },
  ],
  // Unknown parameters and codeDisplay.
  [
    'unknown parameters are kept in order',
    `otpauth://totp/A:b?image=https%3A%2F%2Fx.example%2Fy.png&secret=${S}&foo&=bar`,
    {
      unknownParams: [
        ['image', 'https://x.example/y.png'],
        ['foo', ''],
        ['', 'bar'],
      ],
    },
  ],
  [
    'codeDisplay with unknown keys',
    `otpauth://totp/A:b?secret=${S}&codeDisplay=${encodeURIComponent('{"pinned":true,"tags":["a,b","c;d"],"iconColor":"#fff","nested":{"x":[1,null]}}')}`,
    {
      display: {
        ...emptyDisplay(),
        pinned: true,
        tags: ['a,b', 'c;d'],
        unknown: { iconColor: '#fff', nested: { x: [1, null] } },
      },
    },
  ],
  [
    'codeDisplay with wrong types reads as defaults',
    `otpauth://totp/A:b?secret=${S}&codeDisplay=${encodeURIComponent('{"pinned":"yes","trashed":null,"position":1.5,"tags":["a",1],"note":7}')}`,
    {
      display: { ...emptyDisplay(), tags: ['a'] },
    },
  ],
  [
    'an unreadable codeDisplay is kept as a parameter',
    `otpauth://totp/A:b?secret=${S}&codeDisplay=%7Bnot+json`,
    {
      display: emptyDisplay(),
      unknownParams: [['codeDisplay', '{not json']],
    },
  ],
  [
    'a codeDisplay that is not an object is kept as a parameter',
    `otpauth://totp/A:b?secret=${S}&codeDisplay=%5B1%5D`,
    {
      display: emptyDisplay(),
      unknownParams: [['codeDisplay', '[1]']],
    },
  ],
  [
    'codeDisplay with "%2C" for commas (mobile repairs it)',
    `otpauth://totp/A:b?secret=${S}&codeDisplay=%7B%22tags%22%3A%5B%22a%22%252C%22b%22%5D%7D`,
    {
      display: { ...emptyDisplay(), tags: ['a', 'b'] },
    },
  ],
  [
    'codeDisplay followed by an old fragment',
    `otpauth://totp/A:b?secret=${S}&codeDisplay=%7B%22pinned%22%3Atrue%7D#frag`,
    {
      display: { ...emptyDisplay(), pinned: true },
      unknownParams: [],
    },
  ],
  [
    '"+" in codeDisplay is a space (mobile writes it so)',
    `otpauth://totp/A:b?secret=${S}&codeDisplay=%7B%22note%22%3A%22ente+auth%22%7D`,
    {
      display: { ...emptyDisplay(), note: 'ente auth' },
    },
  ],
  // Errors.
  ['no secret', `otpauth://totp/A:b?issuer=A`, 'parse.missingSecret'],
  ['an empty secret', `otpauth://totp/A:b?secret=+&issuer=A`, 'parse.missingSecret'],
  ['a secret that is not Base32', `otpauth://totp/A:b?secret=JBSWY3DPEHPK3PX1`, 'parse.invalidSecret'],
  ['a secret with non-ASCII letters', `otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXſ`, 'parse.invalidSecret'],
  ['a secret of one character', `otpauth://totp/A:b?secret=J`, 'parse.invalidSecret'],
  ['three digits', `otpauth://totp/A:b?secret=${S}&digits=3`, 'parse.invalidDigits'],
  ['eleven digits', `otpauth://totp/A:b?secret=${S}&digits=11`, 'parse.invalidDigits'],
  ['digits that are not a number', `otpauth://totp/A:b?secret=${S}&digits=six`, 'parse.invalidDigits'],
  ['a zero period', `otpauth://totp/A:b?secret=${S}&period=0`, 'parse.invalidPeriod'],
  ['a negative period', `otpauth://totp/A:b?secret=${S}&period=-30`, 'parse.invalidPeriod'],
  ['a period longer than a day', `otpauth://totp/A:b?secret=${S}&period=86401`, 'parse.invalidPeriod'],
  ['a negative counter', `otpauth://hotp/A:b?secret=${S}&counter=-1`, 'parse.invalidCounter'],
  ['a counter beyond 2^53', `otpauth://hotp/A:b?secret=${S}&counter=9007199254740993`, 'parse.invalidCounter'],
  ['MD5', `otpauth://totp/A:b?secret=${S}&algorithm=MD5`, 'parse.unsupportedAlgorithm'],
  ['motp://', `motp://A:b?secret=${S}`, 'parse.unsupportedType'],
  ['otpauth://motp', `otpauth://motp/A:b?secret=${S}`, 'parse.unsupportedType'],
  ['otpauth://yaotp (Yandex)', `otpauth://yaotp/A:b?secret=${S}`, 'parse.unsupportedType'],
  ['a web address', 'https://example.com/?secret=JBSWY3DPEHPK3PXP', 'parse.notOtpauth'],
  ['plain text', 'JBSWY3DPEHPK3PXP', 'parse.notOtpauth'],
  ['nothing', '', 'parse.notOtpauth'],
  ['no type', `otpauth://?secret=${S}`, 'parse.notOtpauth'],
  ['a Google Authenticator export', 'otpauth-migration://offline?data=CjUKEPqlBekz', 'parse.migrationLink'],
];

describe('parseCodeURI', () => {
  test('the table has at least 40 rows', () => {
    expect(rows.length).toBeGreaterThanOrEqual(40);
  });

  test.each(rows)('%s', (_, uri, expected) => {
    if (typeof expected === 'string') {
      expect(errorKeyOf(uri)).toBe(expected);
    } else {
      expect(parseCodeURI(uri)).toMatchObject(expected);
    }
  });

  test('the entity of the protocol test vectors parses as stated', () => {
    const plaintext =
      '"otpauth://totp/ACME:user@example.org?algorithm=SHA1&digits=6&issuer=ACME&period=30&secret=JBSWY3DPEHPK3PXP&codeDisplay=%7B%22pinned%22%3Atrue%2C%22trashed%22%3Afalse%7D"';
    const code = parseCodeURI(JSON.parse(plaintext) as string);
    expect(code).toEqual({
      type: 'totp',
      issuer: 'ACME',
      account: 'user@example.org',
      secret: 'JBSWY3DPEHPK3PXP',
      algorithm: 'sha1',
      digits: 6,
      period: 30,
      counter: 0,
      display: { ...emptyDisplay(), pinned: true },
      unknownParams: [],
    });
  });

  test('errors carry values to show', () => {
    expect(() => parseCodeURI(`otpauth://totp/A:b?secret=${S}&digits=12`)).toThrow(
      expect.objectContaining({ errorKey: 'parse.invalidDigits', values: { value: '12' } }),
    );
    expect(() => parseCodeURI(`otpauth://hmac/A:b?secret=${S}`)).toThrow(
      expect.objectContaining({ errorKey: 'parse.unsupportedType', values: { type: 'hmac' } }),
    );
  });

  test('never throws anything but CodeParseError, whatever the text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.string({ unit: 'binary' }).map((rest) => `otpauth://totp/${rest}`),
          fc
            .string({
              unit: fc.constantFrom('%', '#', '&', '=', '?', ':', '/', '+', 'secret', 'A', 'codeDisplay', '{'),
            })
            .map((rest) => `otpauth://hotp/${rest}`),
        ),
        (text) => {
          try {
            parseCodeURI(text);
          } catch (error) {
            expect(error).toBeInstanceOf(CodeParseError);
          }
        },
      ),
    );
  });
});

describe('the exports of other apps read as their authors expect', () => {
  const testdata = path.join(__dirname, 'testdata');

  interface Expected {
    type: string;
    issuer: string;
    account: string;
    secret: string;
    algorithm: string;
    digits: number;
    period?: number;
    counter?: number;
    tags?: string[];
    note?: string;
    pinned?: boolean;
  }

  const files: [folder: string, file: string][] = [
    ['aegis', 'ente_auth.txt'],
    ['aegis', 'plain.txt'],
    ['proton-pass-common', 'ente-plain_with_hotp.txt'],
    ['proton-pass-common', 'ente-plain_with_missing_fields.txt'],
    ['proton-pass-common', 'ente-plain_with_steam_and_hotp.txt'],
    ['stratum', 'ente.unencrypted.txt'],
  ];

  test.each(files)('%s/%s', (folder, file) => {
    const expected = JSON.parse(readFileSync(path.join(testdata, folder, 'expected.json'), 'utf8')) as {
      files: Record<string, { entries: Expected[] }>;
    };
    const lines = readFileSync(path.join(testdata, folder, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
    const codes = lines.map(parseCodeURI);
    const entries = expected.files[file]?.entries ?? [];
    expect(codes).toHaveLength(entries.length);
    codes.forEach((code, i) => {
      const entry = entries[i]!;
      expect(code).toMatchObject({
        type: entry.type,
        issuer: entry.issuer,
        account: entry.account,
        secret: entry.secret,
        algorithm: entry.algorithm.toLowerCase(),
        digits: entry.digits,
        ...(entry.type === 'hotp' ? { counter: entry.counter } : { period: entry.period }),
      });
      expect(code.display.tags).toEqual(entry.tags ?? []);
      expect(code.display.note).toBe(entry.note ?? '');
      expect(code.display.pinned).toBe(entry.pinned ?? false);
    });
  });

  test('an Ente export line keeps its unknown display values through a write', () => {
    const line = readFileSync(path.join(testdata, 'proton-pass-common', 'ente-plain_with_missing_fields.txt'), 'utf8');
    const code = parseCodeURI(line);
    expect(code.display.iconSrc).toBe('customIcon');
    expect(parseCodeURI(codeURI(code))).toEqual(code);
  });
});

describe('codeURI', () => {
  const base: CodeData = parseCodeURI(`otpauth://totp/ACME:me?secret=${S}&issuer=ACME`);

  test('writes the form mobile writes, with every display key', () => {
    const uri = codeURI({ ...base, display: { ...emptyDisplay(), pinned: true, tags: ['a b'] } });
    expect(uri).toBe(
      `otpauth://totp/ACME:me?algorithm=SHA1&digits=6&issuer=ACME&period=30&secret=${S}&codeDisplay=` +
        encodeURIComponent(
          '{"pinned":true,"trashed":false,"lastUsedAt":0,"tapCount":0,"tags":["a b"],"note":"","position":0,"iconSrc":"","iconID":""}',
        ).replaceAll('%20', '+'),
    );
  });

  test('writes the counter for HOTP only', () => {
    expect(codeURI({ ...base, type: 'hotp', counter: 7 })).toContain('&secret=JBSWY3DPEHPK3PXP&counter=7&codeDisplay=');
    expect(codeURI({ ...base, counter: 7 })).not.toContain('counter=');
  });

  test('keeps "@" readable and encodes what would break the URI', () => {
    const uri = codeURI({ ...base, issuer: 'A&B #1', account: 'me@x.org/100%?' });
    expect(uri).toMatch(/^otpauth:\/\/totp\/A%26B%20%231:me@x.org%2F100%25%3F\?/);
    expect(uri).toContain('&issuer=A%26B+%231&');
  });

  test('unknown parameters come first, so ours win for readers that take the last value', () => {
    const uri = codeURI({
      ...base,
      unknownParams: [
        ['secret', 'AAAA'],
        ['image', 'x'],
      ],
    });
    expect(uri).toMatch(/\?secret=AAAA&image=x&algorithm=SHA1&/);
    expect(parseCodeURI(uri).secret).toBe(S);
  });

  test('unknown display keys are written after ours and come back', () => {
    const display: CodeDisplay = {
      ...emptyDisplay(),
      unknown: { iconColor: 'red', usage: { days: [1, 2] }, ['__proto__']: { polluted: true } },
    };
    // A "__proto__" key read from JSON is an own property; build it the same way.
    display.unknown = JSON.parse('{"iconColor":"red","usage":{"days":[1,2]},"__proto__":{"polluted":true}}') as Record<
      string,
      unknown
    >;
    const uri = codeURI({ ...base, display });
    const json = decodeURIComponent(uri.split('codeDisplay=')[1]!.replaceAll('+', ' '));
    expect(json.endsWith(',"iconColor":"red","usage":{"days":[1,2]},"__proto__":{"polluted":true}}')).toBe(true);
    const back = parseCodeURI(uri);
    expect(back.display).toEqual(display);
    expect(Object.getPrototypeOf(back.display.unknown)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('an unreadable codeDisplay is written before ours, and ours is the one read again', () => {
    const code = parseCodeURI(`otpauth://totp/A:b?secret=${S}&codeDisplay=%7Bbroken`);
    const uri = codeURI({ ...code, display: { ...code.display, pinned: true } });
    expect(uri).toMatch(/\?codeDisplay=%7Bbroken&algorithm=/);
    expect(parseCodeURI(uri)).toEqual({ ...code, display: { ...code.display, pinned: true } });
  });

  test('display counters are written as integers (mobile reads integers)', () => {
    const uri = codeURI({ ...base, display: { ...emptyDisplay(), position: 2.5, lastUsedAt: NaN } });
    expect(parseCodeURI(uri).display).toMatchObject({ position: 3, lastUsedAt: 0 });
  });

  test('lone surrogates do not make it throw', () => {
    expect(parseCodeURI(codeURI({ ...base, account: 'a\uD800b' })).account).toBe('a\uFFFDb');
  });
});

describe('round trip: parseCodeURI(codeURI(x)) equals x', () => {
  const text = fc.string({
    unit: fc.oneof(
      { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), weight: 5 },
      {
        arbitrary: fc.constantFrom(
          ':',
          '#',
          '&',
          '%',
          '+',
          ' ',
          '=',
          '?',
          '/',
          '-',
          '%2C',
          '%23',
          'period=30',
          'period',
        ),
        weight: 3,
      },
      {
        arbitrary: fc.constantFrom('銀', '行', '张', '🙂', '👩‍👩‍👧', 'é', 'Steam', '"', '\\', ',', ';', '{', '}'),
        weight: 2,
      },
    ),
    maxLength: 12,
  });
  const json = fc.json({ maxDepth: 3 }).map((value) => JSON.parse(value) as unknown);
  const typedKeys = ['pinned', 'trashed', 'lastUsedAt', 'tapCount', 'tags', 'note', 'position', 'iconSrc', 'iconID'];
  const display: fc.Arbitrary<CodeDisplay> = fc.record({
    pinned: fc.boolean(),
    trashed: fc.boolean(),
    lastUsedAt: fc.maxSafeInteger(),
    tapCount: fc.maxSafeNat(),
    tags: fc.array(text, { maxLength: 4 }),
    note: text,
    position: fc.integer(),
    iconSrc: text,
    iconID: text,
    unknown: fc
      .array(fc.tuple(fc.oneof(text, fc.constant('__proto__')), json), { maxLength: 4 })
      .map((entries) => Object.fromEntries(entries.filter(([key]) => !typedKeys.includes(key)))),
  });
  const params = fc.array(
    fc.tuple(
      fc.oneof(text, fc.constantFrom('secret', 'issuer', 'digits', 'period', 'algorithm', 'counter', 'codeDisplay')),
      text,
    ),
    { maxLength: 4 },
  );
  const code: fc.Arbitrary<CodeData> = fc
    .record({
      type: fc.constantFrom('totp', 'hotp', 'steam'),
      issuer: text,
      account: text,
      secret: fc.uint8Array({ minLength: 1, maxLength: 64 }).map(base32Encode),
      algorithm: fc.constantFrom('sha1', 'sha256', 'sha512'),
      digits: fc.integer({ min: 4, max: 10 }),
      period: fc.integer({ min: 1, max: 86_400 }),
      counter: fc.maxSafeNat(),
      display,
      unknownParams: params,
    })
    .map((x): CodeData => {
      // What parseCodeURI can return: Steam's fixed parameters, a counter for HOTP only, and a TOTP
      // code that is not Steam by its issuer or an encoder parameter.
      const steamByName =
        x.issuer.toLowerCase() === 'steam' ||
        x.unknownParams.some(([name, value]) => name === 'encoder' && value.toLowerCase() === 'steam');
      const type = x.type === 'totp' && steamByName ? 'steam' : x.type;
      if (type === 'steam') return { ...x, type, algorithm: 'sha1', digits: 5, period: 30, counter: 0 };
      return { ...x, type, counter: type === 'hotp' ? x.counter : 0 };
    });

  test('for arbitrary codes', () => {
    fc.assert(
      fc.property(code, (x) => {
        expect(parseCodeURI(codeURI(x))).toEqual(x);
      }),
      { numRuns: 500 },
    );
  });

  test('and a parsed URI written and read again gives the same code', () => {
    fc.assert(
      fc.property(code, (x) => {
        const once = parseCodeURI(codeURI(x));
        expect(codeURI(once)).toBe(codeURI(x));
      }),
      { numRuns: 200 },
    );
  });
});

describe('normalisedSecret', () => {
  test.each([
    ['JBSWY3DPEHPK3PXP', 'JBSWY3DPEHPK3PXP'],
    ['jbsw y3dp ehpk 3pxp', 'JBSWY3DPEHPK3PXP'],
    ['JBSWY3DPEHPK3PXP====', 'JBSWY3DPEHPK3PXP'],
    ['  jbswy3dp\tehpk3pxp\n', 'JBSWY3DPEHPK3PXP'],
    ['AB', 'AB'],
    ['A', undefined],
    ['', undefined],
    ['====', undefined],
    ['JBSW=Y3DP', undefined],
    ['JBSWY3DPEHPK3PX0', undefined],
    ['JBSWY3DPEHPK3PX8', undefined],
    ['JBSWY3DP-EHPK3PXP', undefined],
  ])('%j → %j', (text, secret) => {
    expect(normalisedSecret(text)).toBe(secret);
  });
});
