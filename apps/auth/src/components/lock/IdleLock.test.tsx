// The idle lock as VaultPage uses it: it locks after the saved time, covers the page, forgets the
// session keys and loads the password step; the setting changes the time at once.
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';

import { reloadAt } from '@ente/shared/app/navigation.ts';
import { i18n, loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { saveEncryptionKeyStash } from '@ente/shared/storage/account-storage.ts';

import type { Vault } from '../../vault/vault.ts';
import { IdleLock } from './IdleLock.tsx';
import { IdleLockSetting } from './IdleLockSetting.tsx';

jest.mock('@ente/shared/app/navigation.ts', () => ({ reloadAt: jest.fn() }));

const minute = 60_000;

/** With translations only: the lock needs nothing else of the shell. */
function renderWithTranslations(ui: ReactElement) {
  return render(<I18nextProvider i18n={i18n}>{ui}</I18nextProvider>);
}

/** A vault whose `close` the test watches. */
function fakeVault() {
  const close = jest.fn();
  return { vault: { close } as unknown as Vault, close };
}

beforeAll(async () => {
  await loadNamespace('codes');
});

beforeEach(() => {
  jest.useFakeTimers();
  localStorage.clear();
  sessionStorage.clear();
  saveEncryptionKeyStash({ encryptedData: 'ZGF0YQ==', key: 'a2V5', nonce: 'bm9uY2U=' });
  jest.mocked(reloadAt).mockClear();
});

afterEach(() => {
  jest.useRealTimers();
});

test('after 15 minutes by default: the vault closes, the keys go, the page is covered and /credentials loads', () => {
  const { vault, close } = fakeVault();
  renderWithTranslations(<IdleLock vault={vault} />);
  act(() => jest.advanceTimersByTime(15 * minute - 1));
  expect(close).not.toHaveBeenCalled();
  expect(screen.queryByRole('status')).toBeNull();

  act(() => jest.advanceTimersByTime(1));
  expect(close).toHaveBeenCalledTimes(1);
  expect(sessionStorage.getItem('encryptionKey')).toBeNull();
  expect(screen.getByRole('status')).toHaveTextContent('Locked after a period of inactivity');
  expect(reloadAt).toHaveBeenCalledWith('/credentials');
});

test('activity keeps the tab unlocked', () => {
  localStorage.setItem('authIdleLock', JSON.stringify({ minutes: 1 }));
  const { vault, close } = fakeVault();
  renderWithTranslations(<IdleLock vault={vault} />);
  for (let i = 0; i < 10; i++) {
    act(() => jest.advanceTimersByTime(50_000));
    fireEvent.keyDown(document.body, { key: 'a' });
  }
  expect(close).not.toHaveBeenCalled();
  act(() => jest.advanceTimersByTime(minute));
  expect(close).toHaveBeenCalledTimes(1);
});

test('"Never" keeps the tab unlocked however long it sits', () => {
  localStorage.setItem('authIdleLock', JSON.stringify({ minutes: 0 }));
  const { vault, close } = fakeVault();
  renderWithTranslations(<IdleLock vault={vault} />);
  act(() => jest.advanceTimersByTime(24 * 60 * minute));
  expect(close).not.toHaveBeenCalled();
  expect(reloadAt).not.toHaveBeenCalled();
});

test('the setting offers 1, 5, 15, 30, 60 minutes and never, saves the choice, and the lock follows it', () => {
  const { vault, close } = fakeVault();
  const onChange = jest.fn();
  renderWithTranslations(
    <>
      <IdleLockSetting onChange={onChange} />
      <IdleLock vault={vault} />
    </>,
  );
  const select = screen.getByLabelText<HTMLSelectElement>('Lock after inactivity');
  expect(select.value).toBe('15');
  expect([...select.options].map((option) => option.textContent)).toEqual([
    '1 minute',
    '5 minutes',
    '15 minutes',
    '30 minutes',
    '1 hour',
    'Never',
  ]);

  fireEvent.change(select, { target: { value: '1' } });
  expect(onChange).toHaveBeenCalledWith(1);
  expect(JSON.parse(localStorage.getItem('authIdleLock') ?? 'null')).toEqual({ minutes: 1 });
  expect(select.value).toBe('1');

  act(() => jest.advanceTimersByTime(minute));
  expect(close).toHaveBeenCalledTimes(1);
});

test('choosing "Never" stops a lock that was due', () => {
  localStorage.setItem('authIdleLock', JSON.stringify({ minutes: 1 }));
  const { vault, close } = fakeVault();
  renderWithTranslations(
    <>
      <IdleLockSetting />
      <IdleLock vault={vault} />
    </>,
  );
  act(() => jest.advanceTimersByTime(30_000));
  fireEvent.change(screen.getByLabelText('Lock after inactivity'), { target: { value: '0' } });
  act(() => jest.advanceTimersByTime(60 * minute));
  expect(close).not.toHaveBeenCalled();
});
