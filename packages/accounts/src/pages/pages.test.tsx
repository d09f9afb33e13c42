// Every sign-in page of this package is a proper page: the shared header, then one h1 and its sentence
// inside <main>, the first field focused, and nothing that says it is not ready. Each page is shown in
// the state it is made for (an address to verify, a password to ask for, …).
import 'fake-indexeddb/auto';

import { screen, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';

import { setAppName } from '@ente/shared/app-name.ts';
import { changeLocale } from '@ente/shared/i18n/i18n.ts';
import { saveKeyAttributes, saveSrpAttributes } from '@ente/shared/storage/account-storage.ts';
import { deleteKVDatabase } from '@ente/shared/storage/kv.ts';
import { saveUser } from '@ente/shared/storage/local-storage.ts';
import { fakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { makeKeys } from '../testing/fake-server.ts';
import CredentialsPage from './credentials.tsx';
import GeneratePage from './generate.tsx';
import LoginPage from './login.tsx';
import RecoverPage from './recover.tsx';
import SignupPage from './signup.tsx';
import TwoFactorRecoverPage from './two-factor/recover.tsx';
import TwoFactorVerifyPage from './two-factor/verify.tsx';
import VerifyPage from './verify.tsx';

jest.mock('next/router', () => ({ useRouter: () => mockRouter }));
const mockRouter = fakeRouter('/');
// The one request a page makes on arrival here (fetching the two-factor recovery secret) is not this
// file's concern.
jest.mock('../services/two-factor.ts', () => ({
  ...jest.requireActual<object>('../services/two-factor.ts'),
  recoverTwoFactorStart: () => Promise.resolve(),
}));

const email = 'ada@example.org';

// /credentials fetches the app's home ahead while the password is typed.
beforeAll(() => setAppName('auth'));

afterEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  await deleteKVDatabase();
});

const keyAttributes = async () => (await makeKeys('a password')).keyAttributes;

const pages: [string, ComponentType, () => Promise<void>, string, string, string][] = [
  ['/login', LoginPage, async () => {}, 'Sign in', 'Enter the e-mail address of your account.', 'E-mail address'],
  [
    '/signup',
    SignupPage,
    async () => {},
    'Create an account',
    'Your data is encrypted on this device with your password. Nobody else can read it, and nobody can reset the password for you.',
    'E-mail address',
  ],
  [
    '/verify',
    VerifyPage,
    () => saveUser({ email }),
    'Verify your e-mail',
    `We sent a 6-digit code to ${email}. If it does not arrive, check your spam folder.`,
    '6-digit code',
  ],
  [
    '/credentials',
    CredentialsPage,
    async () => {
      await saveUser({ email });
      saveSrpAttributes({
        srpUserID: '6f9619ff-8b86-4011-b42d-00c04fc964ff',
        srpSalt: 'AAAAAAAAAAAAAAAAAAAAAA==',
        kekSalt: 'AAAAAAAAAAAAAAAAAAAAAA==',
        opsLimit: 1,
        memLimit: 8192,
        isEmailMFAEnabled: false,
      });
    },
    'Enter your password',
    `Enter the password of ${email} to unlock your data on this device.`,
    'Password',
  ],
  [
    '/generate',
    GeneratePage,
    () => saveUser({ id: 1, email, token: 'token' }),
    'Set your password',
    'Your sign-up was not finished. Choose the password that encrypts your data to finish it.',
    'Password',
  ],
  [
    '/recover',
    RecoverPage,
    async () => {
      await saveUser({ id: 1, email, token: 'token' });
      saveKeyAttributes(await keyAttributes());
    },
    'Recover your account',
    'Enter the recovery key you saved when you created your account. You will then choose a new password.',
    'Recovery key',
  ],
  [
    '/two-factor/verify',
    TwoFactorVerifyPage,
    () => saveUser({ email, twoFactorSessionID: 'session' }),
    'Two-factor authentication',
    'Enter the 6-digit code shown in your authenticator app.',
    '6-digit code',
  ],
  [
    '/two-factor/recover',
    TwoFactorRecoverPage,
    () => saveUser({ email, twoFactorSessionID: 'session' }),
    'Recover two-factor authentication',
    'Enter your recovery key to turn two-factor authentication off. You can set it up again afterwards.',
    'Recovery key',
  ],
];

test.each(pages)(
  '%s: the header, one h1, its sentence and its focused field',
  async (_, Page, arrange, heading, sentence, field) => {
    await arrange();
    renderInShell(<Page />);
    const main = await screen.findByRole('main');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(within(main).getByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(within(main).getByText(sentence)).toBeInTheDocument();
    await waitFor(() => expect(within(main).getByLabelText(field)).toHaveFocus());
    expect(document.body).not.toHaveTextContent(/not ready/i);
    expect(mockRouter.replace).not.toHaveBeenCalled();
  },
);

test('the pages follow the chosen language', async () => {
  await changeLocale('de-DE');
  try {
    await saveUser({ email });
    renderInShell(<VerifyPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'E-Mail bestätigen' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Bestätigen' })).toBeInTheDocument();
  } finally {
    await changeLocale('en-US');
  }
});
