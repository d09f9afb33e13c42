// Import and export at /auth against the real server: an encrypted Aegis vault and a Google
// Authenticator export image imported through the dialog with its preview; an encrypted export saved,
// the codes deleted, the export imported back with the same codes and metadata; an import cut off by
// the network, then the same file imported again, each code on the server exactly once. Accounts are
// made over HTTP (e2e/api.ts); the fixtures are other apps' real files (apps/auth/test-fixtures/import).
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { expect, test, type Page } from '@playwright/test';

import { api, createAccount, passwordLogin, signInBrowser, type ApiAccount } from '../api.ts';
import { addCodes, authenticatorKey, readCodes } from '../authenticator.ts';
import { seriousViolations, watchProblems } from '../stack.ts';

test.describe.configure({ timeout: 120_000 });

const fixtures = path.resolve(import.meta.dirname, '../../apps/auth/test-fixtures/import');
const fixture = (folder: string, file: string) => readFileSync(path.join(fixtures, folder, file));
const expectedOf = (folder: string, file: string) =>
  (
    JSON.parse(readFileSync(path.join(fixtures, folder, 'expected.json'), 'utf8')) as {
      files: Record<string, { entries: { secret: string; issuer: string; account: string }[] }>;
    }
  ).files[file]!;

async function openCodes(page: Page, uris: string[] = []): Promise<{ account: ApiAccount; token: string }> {
  const { account } = await createAccount();
  const token = await passwordLogin(account, 'auth');
  // A returning user's account, with its authenticator key (the first visit's 404 is another test's).
  await authenticatorKey(account, token);
  if (uris.length) await addCodes(account, token, uris);
  await signInBrowser(page, 'auth', account, token, '/auth');
  await expect(page.getByRole('heading', { level: 1, name: 'Codes' })).toBeVisible();
  return { account, token };
}

async function openTransfer(page: Page, item: 'Import codes…' | 'Export codes…') {
  await page.getByRole('button', { name: 'Import and export' }).click();
  await page.getByRole('menuitem', { name: item }).click();
  return page.getByRole('dialog', { name: item === 'Import codes…' ? 'Import codes' : 'Export codes' });
}

const secretOf = (uri: string) => new URL(uri.replace(/^otpauth:\/\//, 'https://')).searchParams.get('secret');

test('an encrypted Aegis vault and a Google Authenticator export image import through the preview', async ({
  page,
}) => {
  const problems = await watchProblems(page);
  const { account, token } = await openCodes(page);

  let dialog = await openTransfer(page, 'Import codes…');
  await dialog.getByTestId('import-file-input').setInputFiles({
    name: 'vault.json',
    mimeType: 'application/json',
    buffer: fixture('aegis-importers', 'aegis_encrypted.json'),
  });
  await dialog.getByLabel('Password of the file').fill('not the password');
  await dialog.getByRole('button', { name: 'Open' }).click();
  await expect(dialog.getByText('This password does not open the file.')).toBeVisible();
  await dialog.getByLabel('Password of the file').fill('test');
  await dialog.getByRole('button', { name: 'Open' }).click();

  const aegis = expectedOf('aegis-importers', 'aegis_encrypted.json');
  await expect(dialog).toContainText('Exported by: Aegis');
  await expect(dialog).toContainText(`To add: ${String(aegis.entries.length)}`);
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: /^Import \d+ codes$/ }).click();
  await expect(dialog.getByText(`Codes added: ${String(aegis.entries.length)}`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('listitem', { name: new RegExp(aegis.entries[0]!.issuer) }).first()).toBeVisible();

  // One image of a Google Authenticator export, found to be one by its content.
  dialog = await openTransfer(page, 'Import codes…');
  await dialog.getByTestId('import-file-input').setInputFiles({
    name: 'photo.png',
    mimeType: 'image/png',
    buffer: fixture('proton-pass-common', 'GoogleAuthenticatorExport_3.png'),
  });
  const google = expectedOf('proton-pass-common', 'GoogleAuthenticatorExport_3.png');
  await expect(dialog).toContainText('Exported by: Google Authenticator');
  await dialog.getByRole('button', { name: /^Import \d+ codes$/ }).click();
  await expect(dialog.getByRole('status')).toContainText('Codes added:');
  await dialog.getByRole('button', { name: 'Close' }).click();

  const stored = new Set((await readCodes(account, token)).map((code) => secretOf(code.uri)));
  for (const entry of [...aegis.entries, ...google.entries]) expect(stored).toContain(entry.secret);
  expect(problems).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [] });
});

test('an encrypted export imports back, after the codes were deleted, with the same codes and metadata', async ({
  page,
}) => {
  const uris = [
    'otpauth://totp/Mail:ada@example.org?secret=JBSWY3DPEHPK3PXP&issuer=Mail&codeDisplay=%7B%22pinned%22%3Atrue%2C%22tags%22%3A%5B%22work%22%5D%2C%22note%22%3A%22desk%20key%22%7D',
    'otpauth://hotp/Counter:bob?secret=MFRGGZDFMZTWQ2LK&issuer=Counter&counter=7&digits=8',
    'otpauth://totp/Steam:gamer?secret=GEZDGNBVGY3TQOJQ&issuer=Steam',
  ];
  const { account, token } = await openCodes(page, uris);
  await expect(page.getByRole('listitem', { name: /Mail/ })).toBeVisible();
  const before = await readCodes(account, token);

  const dialog = await openTransfer(page, 'Export codes…');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByLabel('Account password')).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByLabel('Account password').fill(account.password);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await dialog.getByLabel('Password for the file').fill('export password');
  await dialog.getByLabel('Password again').fill('export password');
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^ente-auth-codes-\d{8}-\d{6}\.txt$/);
  const file = readFileSync(await download.path());
  expect(JSON.parse(file.toString('utf8'))).toMatchObject({
    version: 1,
    kdfParams: { memLimit: 268_435_456, opsLimit: 16 },
  });
  await dialog.getByRole('button', { name: 'Close' }).click();

  for (const code of before) {
    await api('auth', 'DELETE', '/authenticator/entity', { query: { id: code.id }, token });
  }
  await page.reload();
  await expect(page.getByRole('button', { name: 'Add your first code' })).toBeVisible();

  const importing = await openTransfer(page, 'Import codes…');
  await importing.getByTestId('import-file-input').setInputFiles({ name: 'x', mimeType: 'text/plain', buffer: file });
  await importing.getByLabel('Password of the file').fill('export password');
  await importing.getByRole('button', { name: 'Open' }).click();
  await expect(importing).toContainText('To add: 3');
  await importing.getByRole('button', { name: 'Import 3 codes' }).click();
  await expect(importing.getByText('Codes added: 3')).toBeVisible();
  await importing.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('listitem', { name: /Counter/ })).toBeVisible();

  const after = await readCodes(account, token);
  const bySecret = (codes: { uri: string }[]) =>
    codes
      .map((code) => new URL(code.uri.replace(/^otpauth:\/\//, 'https://')))
      .sort((a, b) => (a.searchParams.get('secret') ?? '').localeCompare(b.searchParams.get('secret') ?? ''));
  const display = (url: URL) => JSON.parse(url.searchParams.get('codeDisplay') ?? '{}') as Record<string, unknown>;
  const [was, is] = [bySecret(before), bySecret(after)];
  expect(is.map((url) => url.pathname)).toEqual(was.map((url) => url.pathname));
  expect(is.map((url) => display(url).tags ?? [])).toEqual(was.map((url) => display(url).tags ?? []));
  expect(is.map((url) => display(url).pinned ?? false)).toEqual(was.map((url) => display(url).pinned ?? false));
  expect(is.map((url) => display(url).note ?? '')).toEqual(was.map((url) => display(url).note ?? ''));
  expect(is.map((url) => url.searchParams.get('counter'))).toEqual(was.map((url) => url.searchParams.get('counter')));
});

test('an import cut off by the network adds whole codes; importing the file again adds the rest, each once', async ({
  page,
  context,
}) => {
  const { account, token } = await openCodes(page);
  const total = 120;
  // A distinct Base32 secret per index, of whole bytes (24 characters): characters past the last whole byte
  // decode to nothing, so secrets that differ only there are one secret, and a duplicate.
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const secret = (index: number) =>
    `JBSWY3DPEHPK3PXP${alphabet[index % 32]!}${alphabet[Math.floor(index / 32)]!}AAAAAA`;
  const text = Array.from(
    { length: total },
    (_, index) => `otpauth://totp/Bulk${String(index)}:me?secret=${secret(index)}&issuer=Bulk${String(index)}`,
  ).join('\n');
  const file = { name: 'codes.txt', mimeType: 'text/plain', buffer: Buffer.from(text) };

  let posts = 0;
  await page.route('**/authenticator/entity', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    posts++;
    if (posts === 40) await context.setOffline(true);
    return route.fallback();
  });
  let dialog = await openTransfer(page, 'Import codes…');
  await dialog.getByTestId('import-file-input').setInputFiles(file);
  await expect(dialog).toContainText(`To add: ${String(total)}`);
  await dialog.getByRole('button', { name: `Import ${String(total)} codes` }).click();
  await expect(dialog.getByRole('alert')).toContainText('The import stopped.');
  await context.setOffline(false);
  await page.unroute('**/authenticator/entity');
  await dialog.getByRole('button', { name: 'Close' }).click();

  const partial = await readCodes(account, token);
  expect(partial.length).toBeGreaterThan(0);
  expect(partial.length).toBeLessThan(total);

  // Back online, the page syncs and knows what the cut-off import saved: those are duplicates now.
  await expect(page.getByRole('button', { name: 'Add code' })).toBeEnabled({ timeout: 30_000 });
  dialog = await openTransfer(page, 'Import codes…');
  await dialog.getByTestId('import-file-input').setInputFiles(file);
  await expect(dialog).toContainText(`To add: ${String(total - partial.length)}`);
  await expect(dialog).toContainText(`Already here: ${String(partial.length)}`);
  await dialog.getByRole('button', { name: `Import ${String(total - partial.length)} codes` }).click();
  await expect(dialog.getByText(`Codes added: ${String(total - partial.length)}`)).toBeVisible();

  const all = await readCodes(account, token);
  const secrets = all.map((code) => secretOf(code.uri));
  expect(secrets).toHaveLength(total);
  expect(new Set(secrets).size).toBe(total);
});
