import { redirectWithResponse } from './passkey-check.ts';
import { nameProblem, passkeyProblem } from './passkey-errors.ts';
import { isAllowedRedirect, isClientPackage } from './redirects.ts';

const origins = ['http://localhost:3003', 'https://photos.example.org'];

describe('where the accounts app may send a person back', () => {
  test.each([
    'http://localhost:3003/passkeys/finish',
    'http://localhost:3003/passkeys/recover?x=1',
    'https://photos.example.org/passkeys/finish',
    'ente://passkey',
    'enteauth://passkey?x=1',
    'entelocker://passkey',
    'ensu://passkey',
    'ente-cli://passkey',
    'tauri://localhost/passkeys/finish',
  ])('%s is allowed', (target) => expect(isAllowedRedirect(target, origins)).toBe(true));

  test.each([
    'https://evil.example/passkeys/finish',
    'http://localhost:3004/passkeys/finish', // not a configured origin
    'https://photos.example.org.evil.example/',
    'http://user:pass@localhost:3003/passkeys/finish',
    'javascript:alert(1)',
    'data:text/html,hi',
    'file:///etc/passwd',
    'tauri://evil.example/',
    '/passkeys/finish',
    '',
    'not a url',
  ])('%s is refused', (target) => expect(isAllowedRedirect(target, origins)).toBe(false));
});

test('client packages are plain identifiers', () => {
  expect(isClientPackage('io.ente.auth.web')).toBe(true);
  expect(isClientPackage('io.ente.photos')).toBe(true);
  for (const bad of ['', 'a b', 'io.ente\n', 'x'.repeat(129), 'ïo']) expect(isClientPackage(bad)).toBe(false);
});

test('the answer goes back as base64url (no padding) of its UTF-8 JSON, other parameters kept', () => {
  const answer = {
    id: 7,
    encryptedToken: 'c2VhbGVk+/==',
    keyAttributes: { kekSalt: 'é✓' } as never,
  };
  const url = new URL(redirectWithResponse('http://localhost:3003/passkeys/finish?keep=1', 'AAAA=', answer));
  expect(url.searchParams.get('keep')).toBe('1');
  expect(url.searchParams.get('passkeySessionID')).toBe('AAAA=');
  const response = url.searchParams.get('response') ?? '';
  expect(response).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(JSON.parse(Buffer.from(response, 'base64url').toString('utf8'))).toEqual(answer);
});

describe('passkey names', () => {
  test.each([
    ['', 'name_required'],
    ['a'.repeat(257), 'name_too_long'],
    ['é'.repeat(129), 'name_too_long'], // 258 bytes of UTF-8
    ['tab\there', 'name_invalid'],
    ['nul\u0000', 'name_invalid'],
    ['lone \ud800', 'name_invalid'],
  ])('%j: %s', (name, problem) => expect(nameProblem(name)).toBe(problem));

  test.each(['YubiKey', 'é'.repeat(128), 'a'.repeat(256), 'Phone 📱'])('%j is fine', (name) =>
    expect(nameProblem(name)).toBeUndefined(),
  );
});

test('failures are told apart', () => {
  expect(passkeyProblem({ httpStatus: 401 }, 'load_failed')).toBe('expired');
  expect(passkeyProblem({ httpStatus: 409, errCode: 'MAX_PASSKEYS_REACHED' }, 'add_failed')).toBe('add_max');
  expect(passkeyProblem(Object.assign(new Error('x'), { name: 'InvalidStateError' }), 'add_failed')).toBe('add_exists');
  expect(passkeyProblem(new Error('boom'), 'add_failed')).toBe('add_failed');
  expect(passkeyProblem(undefined, 'failed')).toBe('failed');
});
