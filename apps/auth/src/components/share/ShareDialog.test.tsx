// The share dialog: it warns, makes a link for the chosen duration that opens to the code's codes, and
// copies it; HOTP codes cannot be shared.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';

import { i18n, loadNamespace } from '@ente/shared/i18n/i18n.ts';

import { emptyDisplay } from '../../services/code-uri.ts';
import { readShareLink } from '../../services/share.ts';
import type { Code } from '../../services/types.ts';
import { ShareDialog } from './ShareDialog.tsx';

function renderWithTranslations(ui: ReactElement) {
  return render(<I18nextProvider i18n={i18n}>{ui}</I18nextProvider>);
}

function code(fields: Partial<Code> = {}): Code {
  return {
    id: 'c1',
    updatedAt: 1,
    uri: '',
    type: 'totp',
    issuer: 'Example',
    account: 'ada@example.org',
    secret: 'JBSWY3DPEHPK3PXP',
    algorithm: 'sha1',
    digits: 6,
    period: 30,
    counter: 0,
    display: emptyDisplay(),
    unknownParams: [],
    ...fields,
  };
}

const writeText = jest.fn((_text: string) => Promise.resolve());

beforeAll(async () => {
  await loadNamespace('codes');
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});

beforeEach(() => {
  writeText.mockClear();
});

test('closed while there is no code', () => {
  renderWithTranslations(<ShareDialog code={undefined} timeOffsetMs={0} onClose={jest.fn()} />);
  expect(screen.queryByRole('dialog')).toBeNull();
});

test('warns, makes a link for the chosen duration, and copies it', async () => {
  renderWithTranslations(<ShareDialog code={code()} timeOffsetMs={0} onClose={jest.fn()} />);
  const dialog = screen.getByRole('dialog', { name: 'Share codes' });
  expect(dialog).toHaveTextContent('Anyone who has this link can see the codes until it expires.');
  expect(dialog).toHaveTextContent('Example (ada@example.org)');
  expect(screen.getByRole('button', { name: '5 min' })).toHaveAttribute('aria-pressed', 'true');

  fireEvent.click(screen.getByRole('button', { name: '2 min' }));
  fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
  const field = await screen.findByLabelText<HTMLInputElement>('Share link');
  expect(field.value).toMatch(/^http:\/\/localhost\/share\?data=[\w-]+&header=[\w-]{32}#[\w-]{43}$/);
  expect(screen.getByText(/^The link works until/)).toBeInTheDocument();

  const payload = await readShareLink(field.value);
  expect(payload.step).toBe(30);
  expect(payload.codes).toHaveLength(5); // ceil(2 min / 30 s) + 1

  fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
  await waitFor(() => expect(writeText).toHaveBeenCalledWith(field.value));
  expect(await screen.findByText('Link copied')).toBeInTheDocument();
});

test('choosing another duration drops the link made for the first', async () => {
  renderWithTranslations(<ShareDialog code={code()} timeOffsetMs={0} onClose={jest.fn()} />);
  fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
  await screen.findByLabelText('Share link');
  fireEvent.click(screen.getByRole('button', { name: '10 min' }));
  expect(screen.queryByLabelText('Share link')).toBeNull();
  expect(screen.getByRole('button', { name: 'Create link' })).toBeInTheDocument();
});

test('the server time offset moves the codes', async () => {
  renderWithTranslations(<ShareDialog code={code()} timeOffsetMs={3_600_000} onClose={jest.fn()} />);
  fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
  const field = await screen.findByLabelText<HTMLInputElement>('Share link');
  const { startTime } = await readShareLink(field.value);
  expect(startTime).toBeGreaterThan(Date.now() + 3_600_000 - 31_000);
});

test('a copy that fails says how to copy by hand', async () => {
  writeText.mockImplementationOnce(() => Promise.reject(new Error('denied')));
  renderWithTranslations(<ShareDialog code={code()} timeOffsetMs={0} onClose={jest.fn()} />);
  fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
  await screen.findByLabelText('Share link');
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    await Promise.resolve();
  });
  expect(await screen.findByText(/Select it and copy it by hand/)).toBeInTheDocument();
});

test('HOTP codes cannot be shared', () => {
  renderWithTranslations(<ShareDialog code={code({ type: 'hotp' })} timeOffsetMs={0} onClose={jest.fn()} />);
  expect(screen.getByText('Only time-based codes (TOTP and Steam) can be shared.')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Create link' })).toBeNull();
});

test('Close calls onClose', () => {
  const onClose = jest.fn();
  renderWithTranslations(<ShareDialog code={code()} timeOffsetMs={0} onClose={onClose} />);
  fireEvent.click(screen.getByRole('button', { name: 'Close' }));
  expect(onClose).toHaveBeenCalled();
});
