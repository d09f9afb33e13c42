import 'fake-indexeddb/auto';

// The user record (local storage) and its kv mirror, written by local-storage.ts and read by user.ts.
import { deleteKVDatabase, removeKV, savedKV } from './kv.ts';
import { removeSavedUser, savedUser, saveUser, updateSavedUser } from './local-storage.ts';
import {
  ensureAuthToken,
  isLoggedIn,
  savedAuthToken,
  savedUserID,
  TokenMirrorError,
  TokenMissingError,
} from './user.ts';

afterEach(async () => {
  localStorage.clear();
  await deleteKVDatabase();
});

test('saving the user mirrors the token and the id (as a string) into kv', async () => {
  await saveUser({ id: 42, email: 'a@example.org', token: 'tok' });
  expect(JSON.parse(localStorage.getItem('user')!)).toEqual({ id: 42, email: 'a@example.org', token: 'tok' });
  expect(await savedKV('token')).toBe('tok');
  expect(await savedKV('userID')).toBe('42');
  expect(await savedUserID()).toBe(42);
  expect(await savedAuthToken()).toBe('tok');
});

test('a record without token or id removes them from the mirror', async () => {
  await saveUser({ id: 42, email: 'a@example.org', token: 'tok' });
  await saveUser({ email: 'a@example.org' });
  expect(await savedKV('token')).toBeUndefined();
  expect(await savedKV('userID')).toBeUndefined();
});

test('updating merges fields into the saved record', async () => {
  await updateSavedUser({ email: 'a@example.org' });
  await updateSavedUser({ id: 7, token: 'tok', isTwoFactorEnabled: true });
  expect(savedUser()).toEqual({ email: 'a@example.org', id: 7, token: 'tok', isTwoFactorEnabled: true });
  expect(await savedKV('token')).toBe('tok');
});

test('fields of later versions survive a round trip', async () => {
  localStorage.setItem('user', JSON.stringify({ id: 1, email: 'a@example.org', token: 't', futureField: 'x' }));
  await updateSavedUser({ isTwoFactorEnabled: false });
  expect(savedUser()).toMatchObject({ futureField: 'x', isTwoFactorEnabled: false });
});

test('a token in local storage but missing from kv raises an error', async () => {
  await saveUser({ id: 42, email: 'a@example.org', token: 'tok' });
  await removeKV('token');
  await expect(savedAuthToken()).rejects.toBeInstanceOf(TokenMirrorError);
  await expect(ensureAuthToken()).rejects.toBeInstanceOf(TokenMirrorError);
});

test('no token anywhere means signed out: undefined, or TokenMissingError when one is needed', async () => {
  expect(await savedAuthToken()).toBeUndefined();
  await expect(ensureAuthToken()).rejects.toBeInstanceOf(TokenMissingError);
  await saveUser({ email: 'a@example.org' });
  expect(await savedAuthToken()).toBeUndefined();
});

test('logged in needs id, email and token', async () => {
  expect(isLoggedIn()).toBe(false);
  await saveUser({ email: 'a@example.org', token: 'tok' });
  expect(isLoggedIn()).toBe(false);
  await saveUser({ id: 0, token: 'tok' });
  expect(isLoggedIn()).toBe(false);
  await saveUser({ id: 1, email: 'a@example.org' });
  expect(isLoggedIn()).toBe(false);
  await saveUser({ id: 0, email: 'a@example.org', token: 'tok' });
  expect(isLoggedIn()).toBe(true);
});

test('a malformed user record reads as signed out', () => {
  localStorage.setItem('user', JSON.stringify({ id: 'not a number', email: 'a@example.org', token: 'tok' }));
  expect(savedUser()).toBeUndefined();
  expect(isLoggedIn()).toBe(false);
  localStorage.setItem('user', '{not json');
  expect(isLoggedIn()).toBe(false);
});

test('removing the user removes the record and its mirror', async () => {
  await saveUser({ id: 42, email: 'a@example.org', token: 'tok' });
  await removeSavedUser();
  expect(localStorage.getItem('user')).toBeNull();
  expect(await savedKV('token')).toBeUndefined();
  expect(await savedKV('userID')).toBeUndefined();
});
