// Renaming a tag across the vault, advancing a HOTP counter, and the plain URI of "Show QR": each
// changes what it should and keeps everything else of the code (unknown display keys and parameters).
import { codeOf } from '../components/editor/testing/fixtures.ts';
import { advancedCounter, normalisedTags, plainCodeURI, renameTagIn, withoutHiddenLabels } from './code-edits.ts';
import { parseCodeURI } from './code-uri.ts';

describe('renameTagIn', () => {
  const work = codeOf({ issuer: 'GitHub', display: { tags: ['Work', 'Dev'], unknown: { iconColor: '#fff' } } });
  const home = codeOf({ issuer: 'Bank', display: { tags: ['Home'] } });
  const both = codeOf({ issuer: 'Mail', display: { tags: ['Work', 'Office'], trashed: true } });

  test('rewrites every code that has the tag, trashed ones too, and only those', () => {
    const writes = renameTagIn([work, home, both], 'Work', 'Job');
    expect(writes.map((write) => write.code.id)).toEqual([work.id, both.id]);
    expect(writes[0]!.data.display.tags).toEqual(['Job', 'Dev']);
    expect(writes[1]!.data.display.tags).toEqual(['Job', 'Office']);
    expect(writes[1]!.data.display.trashed).toBe(true);
  });

  test('keeps the rest of each code, unknown display keys included', () => {
    const [write] = renameTagIn([work], 'Work', 'Job');
    expect(write!.data.display.unknown).toEqual({ iconColor: '#fff' });
    expect(write!.data.secret).toBe(work.secret);
    expect(write!.data).not.toHaveProperty('id');
  });

  test('renaming onto a tag the code already has leaves it once (a merge)', () => {
    const [write] = renameTagIn([work], 'Work', ' Dev ');
    expect(write!.data.display.tags).toEqual(['Dev']);
  });

  test('an empty or unchanged name writes nothing', () => {
    expect(renameTagIn([work], 'Work', '   ')).toEqual([]);
    expect(renameTagIn([work], 'Work', 'Work')).toEqual([]);
    expect(renameTagIn([work], 'Absent', 'New')).toEqual([]);
  });
});

test('normalisedTags trims, drops empty tags and repeats, keeps the order', () => {
  expect(normalisedTags([' b ', 'a', '', 'b', '  '])).toEqual(['b', 'a']);
});

test('normalisedTags and a rename drop characters that draw nothing', () => {
  expect(normalisedTags(['\u202Ekrow', 'work\u200B', 'work', '\u2066\u2069'])).toEqual(['krow', 'work']);
  const code = codeOf({ display: { tags: ['Old'] } });
  expect(renameTagIn([code], 'Old', '\u202ENew\u200B')[0]!.data.display.tags).toEqual(['New']);
  expect(renameTagIn([code], 'Old', '\u200B')).toEqual([]);
});

test('withoutHiddenLabels cleans issuer, account, note and tags, and nothing else', () => {
  const spoof = codeOf({
    issuer: '\u202Emoc.elgoog',
    account: ' al\u200Bice ',
    display: { note: 'line one\nline\u2066 two', tags: ['a\u200Db', 'ab', 'keep'], unknown: { x: 1 } },
  });
  const clean = withoutHiddenLabels(spoof);
  expect([clean.issuer, clean.account, clean.display.note, clean.display.tags]).toEqual([
    'moc.elgoog',
    'alice',
    'line one\nline two',
    ['ab', 'keep'],
  ]);
  expect(clean.secret).toBe(spoof.secret);
  expect(clean.display.unknown).toEqual({ x: 1 });
  // Honest data comes back as the same object.
  const honest = codeOf({ issuer: 'مصرف', account: 'می\u200Cخواهم', display: { tags: ['\u{1F468}\u200D\u{1F469}'] } });
  expect(withoutHiddenLabels(honest)).toBe(honest);
});

test('advancedCounter raises the HOTP counter by one and changes nothing else', () => {
  const hotp = codeOf({ type: 'hotp', counter: 41, digits: 8, display: { note: 'keep', unknown: { x: 1 } } });
  const data = advancedCounter(hotp);
  expect(data.counter).toBe(42);
  expect(data.digits).toBe(8);
  expect(data.display).toEqual(hotp.display);
});

describe('plainCodeURI', () => {
  test('is the code URI without codeDisplay, and reads back as the same code', () => {
    const code = codeOf({
      issuer: 'ACME Co',
      account: 'bob@example.com',
      digits: 8,
      period: 60,
      display: { tags: ['Work'], note: 'secret note', pinned: true },
      unknownParams: [['image', 'https://example.com/logo.png']],
    });
    const uri = plainCodeURI(code);
    expect(uri).not.toContain('codeDisplay');
    expect(uri).not.toContain('secret%20note');
    const read = parseCodeURI(uri);
    expect(read).toMatchObject({
      issuer: 'ACME Co',
      account: 'bob@example.com',
      secret: code.secret,
      digits: 8,
      period: 60,
    });
    expect(read.display.tags).toEqual([]);
    expect(read.unknownParams).toEqual([['image', 'https://example.com/logo.png']]);
  });
});
