// The authenticator page (/auth) against the real server: codes written by another client show with the
// right value, codes are added each way (form, link, QR image, a Google Authenticator export over two
// images), edited, pinned, tagged, filtered, trashed, restored and deleted forever; what the page writes
// is read back over HTTP and opened with plain libsodium. Accounts are made over HTTP (e2e/api.ts).
import { BinaryWriter } from '@bufbuild/protobuf/wire';
import { expect, test, type Page } from '@playwright/test';
import { HOTP, Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

import { createAccount, passwordLogin, signInBrowser, type ApiAccount } from '../api.ts';
import { addCodes, readCodes } from '../authenticator.ts';
import { seriousViolations, watchProblems } from '../stack.ts';

test.describe.configure({ timeout: 90_000 });

/** RFC 6238's SHA-1 seed ("12345678901234567890"). */
const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

/** An account over HTTP with `uris` written as another Ente client would, signed in on `page` at /auth. */
async function openCodes(page: Page, uris: string[] = []): Promise<{ account: ApiAccount; token: string }> {
  const { account } = await createAccount();
  const token = await passwordLogin(account, 'auth');
  if (uris.length) await addCodes(account, token, uris);
  await signInBrowser(page, 'auth', account, token, '/auth');
  await expect(page.getByRole('heading', { level: 1, name: 'Codes' })).toBeVisible();
  return { account, token };
}

const card = (page: Page, name: string | RegExp) => page.getByRole('listitem', { name });
const shown = (text: string | null) => (text ?? '').replace(/\s/g, '');

/** The TOTP codes of the periods around now (the page and this test may straddle a boundary). */
function totpAround(secret: string, digits = 6, period = 30): string[] {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits, period, algorithm: 'SHA1' });
  return [-1, 0, 1].map((step) => totp.generate({ timestamp: Date.now() + step * period * 1000 }));
}

test('codes written by another client show with the right values, on server time even when this clock is an hour off', async ({
  page,
}) => {
  const problems = await watchProblems(page);
  // The page's clock is an hour behind: the vault corrects it with server − local from the diff.
  await page.clock.install({ time: Date.now() - 3_600_000 });
  await page.clock.resume();
  await openCodes(page, [
    `otpauth://totp/ACME:alice@example.org?secret=${rfcSecret}&issuer=ACME&algorithm=SHA1&digits=8&period=30`,
    `otpauth://hotp/Counter:bob?secret=${rfcSecret}&issuer=Counter&counter=3&digits=6`,
    `otpauth://totp/Steam:gamer?secret=${rfcSecret}&issuer=Steam`,
  ]);

  const acme = card(page, /ACME/);
  await expect(acme).toContainText('alice@example.org');
  const current = shown(await acme.getByTestId('current-code').textContent());
  expect(totpAround(rfcSecret, 8)).toContain(current);

  // HOTP: the code of the counter and the one after (RFC 4226 Appendix D: counters 3 and 4).
  const counter = card(page, /Counter/);
  await expect(counter.getByTestId('current-code')).toHaveText('969 429');
  await expect(counter.getByTestId('next-code')).toContainText('338 314');
  const hotp = new HOTP({ secret: Secret.fromBase32(rfcSecret) });
  expect(hotp.generate({ counter: 3 })).toBe('969429');

  // Steam: five characters of its alphabet.
  await expect(card(page, /Steam/).getByTestId('current-code')).toHaveText(
    /^[2-9BCDFGHJKMNPQRTVWXY]{3} [2-9BCDFGHJKMNPQRTVWXY]{2}$/,
  );
  expect(problems).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [] });
});

test('adding a code by the form, by a link and by a QR image; each is stored as the protocol says', async ({
  page,
}) => {
  const { account, token } = await openCodes(page);
  expect(await seriousViolations(page)).toEqual([]);

  // The form.
  await page.getByRole('button', { name: 'Add your first code' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a code' });
  await dialog.getByRole('textbox', { name: 'Issuer' }).fill('Form Co');
  await dialog.getByRole('textbox', { name: 'Account' }).fill('Me@Example.org');
  await dialog.getByRole('textbox', { name: 'Secret key' }).fill('not base32!');
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog.getByText(/This is not a valid secret key/)).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Secret key' }).fill(rfcSecret.toLowerCase());
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, /Form Co/)).toContainText('Me@Example.org');
  expect(totpAround(rfcSecret)).toContain(
    shown(
      await card(page, /Form Co/)
        .getByTestId('current-code')
        .textContent(),
    ),
  );

  // A link.
  await page.getByRole('button', { name: 'Add code' }).click();
  await dialog
    .getByRole('textbox', { name: 'Link (otpauth://…)' })
    .fill(
      'otpauth://totp/Link%20Inc:carol?secret=JBSWY3DPEHPK3PXP&issuer=Link%20Inc&digits=6&period=60&algorithm=SHA256',
    );
  await dialog.getByRole('button', { name: 'Read link' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Issuer' })).toHaveValue('Link Inc');
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(card(page, /Link Inc/)).toContainText('carol');

  // A QR image chosen from a file.
  const image = await QRCode.toBuffer('otpauth://totp/Image%20Ltd:dave?secret=KRSXG5CTMVRXEZLU&issuer=Image%20Ltd');
  await page.getByRole('button', { name: 'Add code' }).click();
  await dialog.locator('input[type="file"]').setInputFiles({ name: 'qr.png', mimeType: 'image/png', buffer: image });
  await expect(dialog.getByRole('textbox', { name: 'Issuer' })).toHaveValue('Image Ltd');
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(card(page, /Image Ltd/)).toContainText('dave');

  // A duplicate is flagged before it is saved.
  await page.getByRole('button', { name: 'Add code' }).click();
  await dialog.getByRole('textbox', { name: 'Issuer' }).fill('Again');
  await dialog.getByRole('textbox', { name: 'Secret key' }).fill(rfcSecret);
  await expect(dialog.getByRole('status')).toHaveText('This code is already in your list: Form Co (Me@Example.org).');
  await dialog.getByRole('button', { name: 'Skip' }).click();
  await expect(dialog).toBeHidden();

  // What the server holds opens with plain libsodium to the JSON string of each code's URI.
  const stored = (await readCodes(account, token)).map(({ uri }) => uri);
  expect(stored).toHaveLength(3);
  const form = stored.find((uri) => uri.includes('Form%20Co'));
  expect(form).toMatch(/^otpauth:\/\/totp\/Form%20Co:Me@Example\.org\?/);
  expect(form).toContain(`secret=${rfcSecret}`);
  expect(form).toContain('codeDisplay=');
  const link = stored.find((uri) => uri.includes('Link%20Inc'));
  expect(link).toContain('algorithm=SHA256');
  expect(link).toContain('period=60');
  expect(await seriousViolations(page)).toEqual([]);
});

test('a Google Authenticator export over two QR images is collected by batch and added together', async ({ page }) => {
  const { account, token } = await openCodes(page);
  const images = await Promise.all(
    [
      [{ secret: 'Hello!', issuer: 'First', name: 'one@example.org' }],
      [{ secret: 'World!', issuer: 'Second', name: 'two@example.org' }],
    ].map((codes, index) => QRCode.toBuffer(migrationURI(codes, { id: 777, index, size: 2 }))),
  );
  await page.getByRole('button', { name: 'Add your first code' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a code' });
  await dialog
    .locator('input[type="file"]')
    .setInputFiles({ name: '1.png', mimeType: 'image/png', buffer: images[0]! });
  await expect(dialog.getByText('1 of 2 images read')).toBeVisible();
  await dialog
    .locator('input[type="file"]')
    .setInputFiles({ name: '2.png', mimeType: 'image/png', buffer: images[1]! });
  await expect(dialog.getByText('2 of 2 images read')).toBeVisible();
  await dialog.getByRole('button', { name: 'Add selected codes' }).click();
  await expect(card(page, /First/)).toContainText('one@example.org');
  await expect(card(page, /Second/)).toContainText('two@example.org');
  const stored = (await readCodes(account, token)).map(({ uri }) => uri);
  // Base32 of the raw secret bytes "Hello!" and "World!".
  expect(stored.some((uri) => uri.includes('secret=JBSWY3DPEE'))).toBe(true);
  expect(stored.some((uri) => uri.includes('secret=K5XXE3DEEE'))).toBe(true);
});

test('edit, pin, tag, filter, trash, restore and delete forever; unknown keys of other apps survive', async ({
  page,
}) => {
  const { account, token } = await openCodes(page, [
    `otpauth://totp/Alpha:a?secret=${rfcSecret}&issuer=Alpha&codeDisplay=${encodeURIComponent(
      JSON.stringify({ pinned: false, iconID: 'github', futureKey: { kept: [1, 2] } }),
    )}`,
    'otpauth://totp/Beta:b?secret=JBSWY3DPEHPK3PXP&issuer=Beta',
  ]);
  // Edit: issuer, a tag, a note, pinned.
  await card(page, /Alpha/)
    .getByRole('button', { name: /Actions for Alpha/ })
    .click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit code' });
  await dialog.getByRole('textbox', { name: 'Issuer' }).fill('Alpha Prime');
  await dialog.getByRole('combobox', { name: 'Tags' }).fill('work');
  await dialog.getByRole('combobox', { name: 'Tags' }).press('Enter');
  await dialog.getByRole('textbox', { name: 'Note' }).fill('the main one; with, punctuation');
  await dialog.getByRole('switch', { name: 'Pin to the top of the list' }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const alpha = card(page, /Alpha Prime/);
  await expect(alpha).toContainText('work');
  await expect(alpha).toContainText('the main one; with, punctuation');
  // Pinned first.
  await expect(
    page
      .getByRole('listitem')
      .filter({ has: page.getByTestId('current-code') })
      .first(),
  ).toContainText('Alpha Prime');

  // The tag chip filters.
  await page.getByRole('group', { name: 'Filter by tag' }).getByRole('button', { name: 'work' }).click();
  await expect(card(page, /Beta/)).toHaveCount(0);
  await page.getByRole('button', { name: 'Clear tags' }).click();
  await expect(card(page, /Beta/)).toBeVisible();

  // The stored URI kept the keys we do not know.
  const edited = (await readCodes(account, token)).find(({ uri }) => uri.includes('Alpha%20Prime'));
  const display = JSON.parse(new URL(edited!.uri).searchParams.get('codeDisplay') ?? '{}') as Record<string, unknown>;
  expect(display).toMatchObject({
    pinned: true,
    tags: ['work'],
    note: 'the main one; with, punctuation',
    iconID: 'github',
    futureKey: { kept: [1, 2] },
  });

  // Trash, restore, trash again, delete forever.
  await card(page, /Beta/)
    .getByRole('button', { name: /Actions for Beta/ })
    .click();
  await page.getByRole('menuitem', { name: 'Move to trash' }).click();
  await expect(card(page, /Beta/)).toHaveCount(0);
  await page.getByRole('button', { name: 'Trash (1)' }).click();
  await page.getByRole('button', { name: 'Restore Beta' }).click();
  await expect(card(page, /Beta/)).toBeVisible();
  await card(page, /Beta/)
    .getByRole('button', { name: /Actions for Beta/ })
    .click();
  await page.getByRole('menuitem', { name: 'Move to trash' }).click();
  await page.getByRole('button', { name: 'Trash (1)' }).click();
  await page.getByRole('button', { name: 'Delete Beta forever' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete forever' }).click();
  await expect(page.getByRole('button', { name: /Trash/ })).toHaveCount(0);
  await expect.poll(async () => (await readCodes(account, token)).length).toBe(1);
  expect(await seriousViolations(page)).toEqual([]);
});

test('two browsers edit the same code: the second sees the conflict and chooses; two tabs stay in step', async ({
  browser,
  page,
}) => {
  const { account, token } = await openCodes(page, [`otpauth://totp/Shared:s?secret=${rfcSecret}&issuer=Shared`]);
  // A second tab of the same browser, unlocked as a tab opened from this one is (session storage is per tab).
  const tab = await page.context().newPage();
  const stash = await page.evaluate(() => sessionStorage.getItem('encryptionKey') ?? '');
  await tab.addInitScript((value) => sessionStorage.setItem('encryptionKey', value), stash);
  await tab.goto(page.url());
  await expect(card(tab, /Shared/)).toBeVisible();

  // Another browser (device) with the same account.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signInBrowser(otherPage, 'auth', account, await passwordLogin(account, 'auth'), '/auth');
  await expect(card(otherPage, /Shared/)).toBeVisible();

  const rename = async (where: Page, from: RegExp, to: string) => {
    await card(where, from)
      .getByRole('button', { name: /Actions for/ })
      .click();
    await where.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = where.getByRole('dialog', { name: 'Edit code' });
    await dialog.getByRole('textbox', { name: 'Issuer' }).fill(to);
    await dialog.getByRole('button', { name: 'Save' }).click();
  };
  // This browser saves first; its other tab follows without a reload.
  await rename(page, /Shared/, 'From Laptop');
  await expect(card(page, /From Laptop/)).toBeVisible();
  await expect(card(tab, /From Laptop/)).toBeVisible();

  // The other browser still edits the version it read: a conflict, not an overwrite.
  await rename(otherPage, /Shared/, 'From Desktop');
  const conflict = otherPage.getByRole('dialog', { name: 'This code was changed on another device' });
  await expect(conflict).toBeVisible();
  await expect(conflict).toContainText('From Laptop');
  await expect(conflict).toContainText('From Desktop');
  await conflict.getByRole('button', { name: 'Keep mine' }).click();
  await expect(card(otherPage, /From Desktop/)).toBeVisible();
  await expect.poll(async () => (await readCodes(account, token))[0]?.uri ?? '').toContain('From%20Desktop');
  await other.close();
});

test('a share link opened in a fresh browser shows the code', async ({ browser, page }) => {
  await openCodes(page, [`otpauth://totp/Shared%20Out:x?secret=${rfcSecret}&issuer=Shared%20Out`]);
  await card(page, /Shared Out/)
    .getByRole('button', { name: /Actions for/ })
    .click();
  await page.getByRole('menuitem', { name: 'Share' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share codes' });
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const link = await dialog.getByRole('textbox', { name: 'Share link' }).inputValue();
  expect(link).toMatch(/\/share\?data=[\w-]+&header=[\w-]+#[\w-]{43}$/);

  const fresh = await browser.newContext();
  const visitor = await fresh.newPage();
  await visitor.goto(link);
  const current = visitor.getByTestId('share-current');
  await expect(current).toBeVisible();
  expect(totpAround(rfcSecret)).toContain(shown(await current.textContent()));
  // A damaged link says so.
  await visitor.goto(link.replace(/#.*/, '#AAAA'));
  await expect(visitor.getByText(/This link is malformed/)).toBeVisible();
  await fresh.close();
});

test('offline after one visit: a reload shows the cached codes, ticking, with editing off', async ({ page }) => {
  await openCodes(page, [`otpauth://totp/Offline:o?secret=${rfcSecret}&issuer=Offline`]);
  await expect(card(page, /Offline/)).toBeVisible();
  // The service worker takes control of the page once installed.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await expect(card(page, /Offline/)).toBeVisible();

  await page.context().setOffline(true);
  await page.reload();
  await expect(card(page, /Offline/)).toBeVisible();
  expect(totpAround(rfcSecret)).toContain(
    shown(
      await card(page, /Offline/)
        .getByTestId('current-code')
        .textContent(),
    ),
  );
  await expect(page.getByTestId('read-only-banner')).toContainText('You are offline');
  await expect(page.getByRole('button', { name: 'Add code' })).toBeDisabled();
  await page.context().setOffline(false);
});

test('the idle lock locks the tab and the password unlocks it', async ({ page }) => {
  await page.clock.install();
  const { account } = await openCodes(page, [`otpauth://totp/Locked:l?secret=${rfcSecret}&issuer=Locked`]);
  await expect(card(page, /Locked/)).toBeVisible();
  await page.getByRole('button', { name: 'Display options' }).click();
  await page.getByRole('combobox', { name: 'Lock after inactivity' }).selectOption({ label: '1 minute' });
  await page.keyboard.press('Escape');

  await page.clock.fastForward('01:05');
  await expect(page).toHaveURL(/\/credentials$/);
  const keys = await page.evaluate(() => Object.keys(sessionStorage));
  expect(keys).not.toContain('encryptionKey');
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(card(page, /Locked/)).toBeVisible({ timeout: 30_000 });
});

test('keyboard only: add a code, find it, copy it', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openCodes(page, ['otpauth://totp/Zeta:z?secret=JBSWY3DPEHPK3PXP&issuer=Zeta']);
  await expect(card(page, /Zeta/)).toBeVisible();
  await page.keyboard.press('a');
  const dialog = page.getByRole('dialog', { name: 'Add a code' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Issuer' }).focus();
  await page.keyboard.type('Keys Corp');
  await page.keyboard.press('Tab');
  await page.keyboard.type('kb@example.org');
  await dialog.getByRole('textbox', { name: 'Secret key' }).focus();
  await page.keyboard.type(rfcSecret);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(card(page, /Keys Corp/)).toBeVisible();

  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Search codes' })).toBeFocused();
  await page.keyboard.type('keys');
  await expect(card(page, /Zeta/)).toHaveCount(0);
  await page.keyboard.press('Tab');
  // Tab reaches the list's one focusable card; C copies its code.
  while (!(await card(page, /Keys Corp/).evaluate((element) => element === document.activeElement))) {
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('c');
  await expect(page.getByText('Copied')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(totpAround(rfcSecret)).toContain(copied);
  await page.keyboard.press('Escape');
  await expect(card(page, /Zeta/)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

/** A Google Authenticator migration URI (formats: MigrationPayload) holding `codes`. */
function migrationURI(
  codes: { secret: string; issuer: string; name: string }[],
  batch: { id: number; index: number; size: number },
): string {
  const writer = new BinaryWriter();
  for (const code of codes) {
    writer.uint32((1 << 3) | 2).fork();
    writer.uint32((1 << 3) | 2).bytes(new TextEncoder().encode(code.secret));
    writer.uint32((2 << 3) | 2).string(code.name);
    writer.uint32((3 << 3) | 2).string(code.issuer);
    writer.uint32((4 << 3) | 0).int32(1); // SHA-1
    writer.uint32((5 << 3) | 0).int32(1); // six digits
    writer.uint32((6 << 3) | 0).int32(2); // TOTP
    writer.join();
  }
  writer.uint32((2 << 3) | 0).int32(1);
  writer.uint32((3 << 3) | 0).int32(batch.size);
  writer.uint32((4 << 3) | 0).int32(batch.index);
  writer.uint32((5 << 3) | 0).int32(batch.id);
  const data = Buffer.from(writer.finish()).toString('base64');
  return `otpauth-migration://offline?data=${encodeURIComponent(data)}`;
}
