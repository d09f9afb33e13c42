// Every sign-in route is a proper page: the shared header, then an h1 and its sentence inside <main>,
// translated (here in en-US and, for one, in another locale).
import 'fake-indexeddb/auto';

import { screen, within } from '@testing-library/react';
import type { ComponentType } from 'react';

import { changeLocale } from '@ente/shared/i18n/i18n.ts';
import { fakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import ChangeEmailPage from './change-email.tsx';
import ChangePasswordPage from './change-password.tsx';
import CredentialsPage from './credentials.tsx';
import GeneratePage from './generate.tsx';
import LoginPage from './login.tsx';
import RecoverPage from './recover.tsx';
import SignupPage from './signup.tsx';
import TwoFactorRecoverPage from './two-factor/recover.tsx';
import TwoFactorSetupPage from './two-factor/setup.tsx';
import TwoFactorVerifyPage from './two-factor/verify.tsx';
import VerifyPage from './verify.tsx';

jest.mock('next/router', () => ({ useRouter: () => mockRouter }));
const mockRouter = fakeRouter('/');

afterEach(() => localStorage.clear());

const pages: [string, ComponentType, string, string][] = [
  ['/login', LoginPage, 'Sign in', 'Sign in with your e-mail address and a one-time code.'],
  ['/signup', SignupPage, 'Create an account', 'Create an account with your e-mail address and a password.'],
  ['/verify', VerifyPage, 'Verify your e-mail', 'Enter the code we sent to your e-mail address.'],
  [
    '/recover',
    RecoverPage,
    'Recover your account',
    'Use your recovery key to get back into your account if you forgot your password.',
  ],
  ['/generate', GeneratePage, 'Set your password', 'Choose the password that encrypts your data.'],
  ['/credentials', CredentialsPage, 'Enter your password', 'Enter your password to unlock your data on this device.'],
  ['/change-email', ChangeEmailPage, 'Change e-mail', 'Move your account to a new e-mail address.'],
  ['/change-password', ChangePasswordPage, 'Change password', 'Choose a new password for your account.'],
  [
    '/two-factor/setup',
    TwoFactorSetupPage,
    'Set up two-factor authentication',
    'Add a code from an authenticator app as a second step when you sign in.',
  ],
  [
    '/two-factor/verify',
    TwoFactorVerifyPage,
    'Two-factor authentication',
    'Enter the code shown in your authenticator app.',
  ],
  [
    '/two-factor/recover',
    TwoFactorRecoverPage,
    'Recover two-factor authentication',
    'Lost your authenticator? Use your recovery key to turn two-factor authentication off.',
  ],
];

test.each(pages)('%s has the header, an h1 and its sentence in main', (_, Page, heading, sentence) => {
  renderInShell(<Page />);
  expect(screen.getByRole('banner')).toBeInTheDocument();
  const main = screen.getByRole('main');
  expect(within(main).getByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  expect(within(main).getByText(sentence)).toBeInTheDocument();
  expect(within(main).getByText('This page is not ready yet.')).toBeInTheDocument();
  expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
});

test('the pages follow the chosen language', async () => {
  await changeLocale('de-DE');
  const { unmount } = renderInShell(<VerifyPage />);
  expect(screen.getByRole('heading', { level: 1, name: 'E-Mail bestätigen' })).toBeInTheDocument();
  unmount();
  await changeLocale('en-US');
});
