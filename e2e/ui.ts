// The sign-in steps as a person takes them in the browser, shared by the account tests: each finds its
// fields and buttons by role and accessible name (the en-US texts of packages/shared/src/i18n/locales/
// en-US/accounts.json and common.json) and waits until the page it leads to is there.
import { readFile } from 'node:fs/promises';

import { expect, type Page } from '@playwright/test';

import { Inbox } from './mail.ts';
import { appUrl, waitUntilSettled, type AppName } from './stack.ts';
import type { Authenticator } from './totp.ts';

/** Where each app lands after sign-in (docs/product.md#routes). */
export const homePaths: Record<AppName, string> = {
  auth: '/auth',
  photos: '/gallery',
  accounts: '/passkeys',
  cast: '/',
};

/** A password nobody would choose twice, strong enough for the strength hint. */
export function newPassword(): string {
  return `e2e ${Math.random().toString(36).slice(2, 10)} Tr0ub4dor ${Math.random().toString(36).slice(2, 6)}!`;
}

export const field = {
  email: (page: Page) => page.getByRole('textbox', { name: 'E-mail address' }),
  password: (page: Page) => page.getByLabel('Password', { exact: true }),
  confirmPassword: (page: Page) => page.getByLabel('Confirm password', { exact: true }),
  code: (page: Page) => page.getByRole('textbox', { name: '6-digit code' }),
  recoveryKey: (page: Page) => page.getByRole('textbox', { name: 'Recovery key' }),
};

/** The home page of `app`, showing who is signed in. */
export async function expectHome(page: Page, app: AppName, email: string): Promise<void> {
  // Sign-in derives the KEK (≈ 5 s at 256 MiB × 16 here, more on a busy machine).
  await expect(page).toHaveURL(`${appUrl(app)}${homePaths[app]}`, { timeout: 60_000 });
  await expect(page.getByText(email)).toBeVisible();
}

export async function openLogin(page: Page, app: AppName): Promise<void> {
  await page.goto(`${appUrl(app)}/login`);
  await waitUntilSettled(page);
}

/** /login → /credentials: the e-mail of an account with SRP and e-mail MFA off. */
export async function enterEmail(page: Page, email: string): Promise<void> {
  await field.email(page).fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Enter your password' })).toBeVisible();
}

/** On /credentials: types the password and submits. */
export async function enterPassword(page: Page, password: string): Promise<void> {
  await field.password(page).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A whole password sign-in at `app` from /login, ending on its home page (with the TOTP when given). */
export async function signIn(
  page: Page,
  app: AppName,
  { email, password }: { email: string; password: string },
  authenticator?: Authenticator,
): Promise<void> {
  await openLogin(page, app);
  await enterEmail(page, email);
  await enterPassword(page, password);
  if (authenticator) await enterTotp(page, authenticator);
  await expectHome(page, app, email);
}

/** On /two-factor/verify: the current code (the field submits itself at six digits). */
export async function enterTotp(page: Page, authenticator: Authenticator): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Two-factor authentication' })).toBeVisible({
    timeout: 30_000,
  });
  await field.code(page).fill(await authenticator.nextCode());
}

/**
 * Sign-up through the pages: /signup → /verify (the code from the server log) → /generate, where the
 * recovery key is downloaded ("saved") and acknowledged → the home page. Returns the words, as
 * downloaded.
 */
export async function signUp(
  page: Page,
  app: AppName,
  { email, password }: { email: string; password: string },
  { onFormShown }: { onFormShown?: () => Promise<void> } = {},
): Promise<{ recoveryWords: string }> {
  await page.goto(`${appUrl(app)}/signup`);
  await waitUntilSettled(page);
  await onFormShown?.();
  await field.email(page).fill(email);
  await field.password(page).fill(password);
  await field.confirmPassword(page).fill(password);
  const inbox = await Inbox.open(email);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Verify your e-mail' })).toBeVisible({ timeout: 30_000 });
  await field.code(page).fill(await inbox.nextCode());
  const recoveryWords = await saveRecoveryWords(page);
  await page.getByRole('checkbox', { name: 'I saved my recovery key in a safe place.' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectHome(page, app, email);
  return { recoveryWords };
}

/** On a page that shows the recovery key: downloads it, checks the file against the words shown. */
export async function saveRecoveryWords(page: Page): Promise<string> {
  const list = page.getByRole('list', { name: 'Your recovery key' });
  await expect(list.getByRole('listitem')).toHaveCount(24, { timeout: 30_000 });
  const shown = (await list.getByRole('listitem').allInnerTexts()).map((item) =>
    item.replace(/^\s*\d+\.\s*/, '').trim(),
  );
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('ente-recovery-key.txt');
  const saved = (await readFile(await file.path(), 'utf8')).trim();
  expect(saved).toBe(shown.join(' '));
  return saved;
}

/** The app menu's "Log out"; the app then loads '/' afresh. */
export async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Menu' }).click();
  const reloaded = page.waitForEvent('load', { timeout: 30_000 });
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await reloaded;
  await waitUntilSettled(page);
}

/** The settings (app menu → Settings), a dialog. */
export async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await expect(settings).toBeVisible();
  return settings;
}
