import { emptyDisplay } from './code-uri.ts';
import { allTags, codeIdentity, duplicateOf, matchesSearch, sortCodes } from './find.ts';
import type { Code, CodeDisplay } from './types.ts';

let nextId = 0;

function code(issuer: string, account = '', display: Partial<CodeDisplay> = {}, extra: Partial<Code> = {}): Code {
  nextId += 1;
  return {
    id: `id-${nextId}`,
    updatedAt: 1,
    uri: '',
    type: 'totp',
    issuer,
    account,
    secret: 'JBSWY3DPEHPK3PXP',
    algorithm: 'sha1',
    digits: 6,
    period: 30,
    counter: 0,
    display: { ...emptyDisplay(), ...display },
    unknownParams: [],
    ...extra,
  };
}

const names = (codes: Code[]) => codes.map((c) => (c.account ? `${c.issuer}/${c.account}` : c.issuer));

describe('matchesSearch', () => {
  const github = code('GitHub', 'Alice@Example.com', { note: 'Work laptop', tags: ['Dev', 'Ops;EU'] });

  test.each([
    ['', true],
    ['   ', true],
    ['git', true],
    ['GITHUB', true],
    ['  hub  ', true],
    ['alice@', true],
    ['laptop', true],
    ['dev', true],
    ['ops;eu', true],
    ['github alice', true],
    ['alice work', true],
    ['gitlab', false],
    ['github bob', false],
    // Full-width letters are the same letters after NFKC.
    ['ＧｉｔＨｕｂ', true],
  ])('%j → %s', (query, matches) => {
    expect(matchesSearch(github, query)).toBe(matches);
  });

  test('ligatures and composed forms match', () => {
    const c = code('Ofﬁce', 'Zoë');
    expect(matchesSearch(c, 'office')).toBe(true);
    expect(matchesSearch(c, 'zoe\u0308')).toBe(true);
  });

  test('an edited code (a new object) is searched with its new fields', () => {
    const edited = { ...github, issuer: 'GitLab' };
    expect(matchesSearch(github, 'gitlab')).toBe(false);
    expect(matchesSearch(edited, 'gitlab')).toBe(true);
  });

  test('characters that draw nothing neither hide a code from the search nor find one', () => {
    const spoof = code('goo\u200Bgle.com', '\u202Eeci\u200Dla');
    expect(matchesSearch(spoof, 'google')).toBe(true);
    expect(matchesSearch(spoof, 'ecila')).toBe(true);
    expect(matchesSearch(spoof, 'goo\u200Bgle')).toBe(true);
    expect(matchesSearch(code('Plain'), '\u200B')).toBe(true);
    expect(matchesSearch(code('Plain'), 'pl\u2066ain')).toBe(true);
  });
});

describe('sortCodes', () => {
  const codes = [
    code('beta', 'x'),
    code('', 'no issuer'),
    code('Alpha', 'user10', { lastUsedAt: 5, position: 3 }),
    code('alpha', 'User2', { lastUsedAt: 9, position: 1 }),
    code('Zeta', 'a', { pinned: true, position: 9 }),
    code('gamma', '', { lastUsedAt: 7, position: 2 }),
  ];

  test('issuer: pinned first, empty issuers last, ties by account in natural order', () => {
    expect(names(sortCodes(codes, 'issuer'))).toEqual([
      'Zeta/a',
      'alpha/User2',
      'Alpha/user10',
      'beta/x',
      'gamma',
      '/no issuer',
    ]);
  });

  test('account: natural and case-insensitive, codes without an account last', () => {
    expect(names(sortCodes(codes, 'account'))).toEqual([
      'Zeta/a',
      '/no issuer',
      'alpha/User2',
      'Alpha/user10',
      'beta/x',
      'gamma',
    ]);
  });

  test('recent: last used first, then by issuer', () => {
    expect(names(sortCodes(codes, 'recent'))).toEqual([
      'Zeta/a',
      'alpha/User2',
      'gamma',
      'Alpha/user10',
      'beta/x',
      '/no issuer',
    ]);
  });

  test('manual: by position, ties by issuer', () => {
    expect(names(sortCodes(codes, 'manual'))).toEqual([
      'Zeta/a',
      'beta/x',
      '/no issuer',
      'alpha/User2',
      'gamma',
      'Alpha/user10',
    ]);
  });

  test('does not change its argument', () => {
    const before = [...codes];
    sortCodes(codes, 'issuer');
    expect(codes).toEqual(before);
  });

  test('sorts 10,000 codes by issuer, each kept once', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => code(`Issuer ${(i * 7919) % 10_000}`, `acc${i}`));
    const issuers = sortCodes(many, 'issuer').map((entry) => entry.issuer);
    expect(new Set(issuers).size).toBe(10_000);
    const collator = new Intl.Collator();
    expect(issuers.slice(1).every((issuer, i) => collator.compare(issuers[i]!, issuer) < 0)).toBe(true);
  });
});

describe('allTags', () => {
  test('distinct, sorted, only from codes outside the trash', () => {
    const codes = [
      code('a', '', { tags: ['Work', 'home'] }),
      code('b', '', { tags: ['work', 'Work', 'a,b;c'] }),
      code('c', '', { tags: ['Secret'], trashed: true }),
      code('d', '', { tags: ['', '  '] }),
    ];
    expect(allTags(codes)).toEqual(['a,b;c', 'home', 'work', 'Work']);
  });
});

describe('duplicateOf', () => {
  const original = code('GitHub', 'alice');
  const trashed = code('Old', 'alice', { trashed: true }, { secret: 'GEZDGNBVGY3TQOJQ' });
  const hotp = code('GitHub', 'alice', {}, { type: 'hotp' });
  const codes = [trashed, original, hotp, code('Other', 'bob', {}, { secret: 'MFRGGZDFMZTWQ2LK' })];

  test('the same secret and type is a duplicate, whatever the labels', () => {
    expect(duplicateOf({ ...original, id: undefined, issuer: 'github.com', account: 'someone' }, codes)).toBe(original);
  });

  test('another type or another secret is not', () => {
    expect(duplicateOf({ ...original, type: 'steam' }, codes)).toBeUndefined();
    expect(duplicateOf({ ...original, secret: 'KRUGS4ZANFZSA5DIMUQGC3LTO4' }, codes)).toBeUndefined();
  });

  test('the same secret with another algorithm, digits, period or counter is another code', () => {
    const fresh = { ...original, id: undefined };
    expect(duplicateOf({ ...fresh, algorithm: 'sha256' }, codes)).toBeUndefined();
    expect(duplicateOf({ ...fresh, digits: 8 }, codes)).toBeUndefined();
    expect(duplicateOf({ ...fresh, period: 15 }, codes)).toBeUndefined();
    expect(duplicateOf({ ...hotp, id: undefined, counter: 1 }, codes)).toBeUndefined();
    expect(duplicateOf({ ...hotp, id: undefined }, codes)).toBe(hotp);
    // A counter means nothing to a time-based code, a period nothing to a counter-based one.
    expect(duplicateOf({ ...fresh, counter: 5 }, codes)).toBe(original);
    expect(duplicateOf({ ...hotp, id: undefined, period: 60 }, codes)).toBe(hotp);
  });

  test('secrets are compared as bytes, not as Base32 spellings', () => {
    const fresh = { ...original, id: undefined };
    expect(duplicateOf({ ...fresh, secret: 'jbsw y3dp ehpk 3pxp' }, codes)).toBe(original);
    expect(duplicateOf({ ...fresh, secret: 'JBSWY3DPEHPK3PXP======' }, codes)).toBe(original);
    // 26 characters hold 16 bytes and 2 spare bits: the spare bits are no part of the secret.
    expect(codeIdentity({ ...fresh, secret: 'KRUGS4ZANFZSA5DIMUQGC3LTO4' })).toBe(
      codeIdentity({ ...fresh, secret: 'KRUGS4ZANFZSA5DIMUQGC3LTO7' }),
    );
    expect(codeIdentity({ ...fresh, secret: 'KRUGS4ZANFZSA5DIMUQGC3LTO4' })).not.toBe(
      codeIdentity({ ...fresh, secret: 'KRUGS4ZANFZSA5DIMUQGC3LTQ4' }),
    );
  });

  test('a code in the trash counts, but one outside it is preferred', () => {
    expect(duplicateOf({ ...trashed, id: undefined, display: emptyDisplay() }, codes)).toBe(trashed);
    const again = code('Again', 'alice', {}, { secret: trashed.secret });
    expect(duplicateOf({ ...trashed, id: undefined }, [trashed, again])).toBe(again);
  });

  test('a code being edited is not its own duplicate', () => {
    expect(duplicateOf(hotp, codes)).toBeUndefined();
    expect(duplicateOf(original, [...codes, code('Copy', '', {}, { secret: original.secret })])?.issuer).toBe('Copy');
  });
});
