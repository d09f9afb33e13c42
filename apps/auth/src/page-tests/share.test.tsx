// /share in the browser (jsdom): a link opens and counts down, saying that anyone can make one; broken,
// expired and overlong links say so, and a visit without a link loads neither the share module nor the
// crypto worker.
import { screen } from '@testing-library/react';

import { encryptBlobB64 } from '@ente/crypto/blob.ts';
import type * as CryptoClient from '@ente/crypto/client.ts';
import { cryptoWorker } from '@ente/crypto/client.ts';
import { toB64UrlNoPad, utf8Bytes } from '@ente/crypto/encoding.ts';
import { generateKeyB64 } from '@ente/crypto/keys.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import SharePage from '../pages/share.tsx';

jest.mock('@ente/crypto/client.ts', () => {
  const actual = jest.requireActual<typeof CryptoClient>('@ente/crypto/client.ts');
  return { ...actual, cryptoWorker: jest.fn(actual.cryptoWorker) };
});

const hour = 3_600_000;

function urlPart(b64: string): string {
  return toB64UrlNoPad(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
}

/** Puts a link holding `payload` in the address bar (the query and the key in the fragment). */
async function visitLinkOf(payload: unknown, options: { wrongKey?: boolean } = {}) {
  const key = await generateKeyB64();
  const blob = await encryptBlobB64(utf8Bytes(JSON.stringify(payload)), key);
  const fragment = options.wrongKey ? urlPart(await generateKeyB64()) : urlPart(key);
  window.history.replaceState(
    null,
    '',
    `/share?data=${urlPart(blob.encryptedData)}&header=${urlPart(blob.header)}#${fragment}`,
  );
}

beforeEach(() => {
  jest.mocked(cryptoWorker).mockClear();
});

test('a visit without a link says the link is malformed, and starts no crypto worker', async () => {
  window.history.replaceState(null, '', '/share');
  renderInShell(<SharePage />);
  expect(await screen.findByRole('alert')).toHaveTextContent(/This link is malformed/);
  expect(cryptoWorker).not.toHaveBeenCalled();
});

test('a link shows the current code, the next one, and how long both last', async () => {
  // One-hour steps, so that no boundary passes while the test runs.
  const startTime = Date.now() - 10 * 60_000;
  await visitLinkOf({ startTime, step: 3600, codes: '123456,654321' });
  renderInShell(<SharePage />);

  expect(await screen.findByText('123 456')).toBeInTheDocument();
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Shared code');
  // The page cannot know who made the link, and says so.
  expect(screen.getByText(/Anyone can make such a link/)).toBeInTheDocument();
  expect(screen.queryByText(/Someone shared/)).toBeNull();
  expect(screen.getByText('654 321')).toBeInTheDocument();
  expect(screen.getByText(/^Changes in \d+ s$/)).toHaveTextContent(/Changes in (3000|2999) s/);
  expect(screen.getByText(/^The link expires in/)).toHaveTextContent(/The link expires in (110:00|109:59)\./);
  expect(cryptoWorker).toHaveBeenCalled();
});

test('the last code says it is the last', async () => {
  await visitLinkOf({ startTime: Date.now() - 10 * 60_000, step: 3600, codes: 'BCD2F' });
  renderInShell(<SharePage />);
  expect(await screen.findByText('BCD 2F')).toBeInTheDocument();
  expect(screen.getByText('This is the last code of the link.')).toBeInTheDocument();
});

test('an expired link says so', async () => {
  await visitLinkOf({ startTime: Date.now() - 3 * hour, step: 3600, codes: '123456,654321' });
  renderInShell(<SharePage />);
  expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired.');
  expect(screen.queryByText('123 456')).toBeNull();
});

test('a link from the future says the clocks are out of sync', async () => {
  await visitLinkOf({ startTime: Date.now() + hour, step: 30, codes: '123456' });
  renderInShell(<SharePage />);
  expect(await screen.findByRole('alert')).toHaveTextContent(/not valid yet/);
});

/** `count` six-digit codes, comma-separated. */
const codesText = (count: number) => Array.from({ length: count }, (_, i) => String(i).padStart(6, '0')).join(',');

test('a link as long as the longest the sharing dialog makes (10 minutes, plus one code) opens', async () => {
  // 30-second codes: ceil(600 / 30) + 1 = 21 of them.
  await visitLinkOf({ startTime: Date.now() - 1000, step: 30, codes: codesText(21) });
  renderInShell(<SharePage />);
  expect(await screen.findByText('000 000')).toBeInTheDocument();
});

test.each([
  ['one code more than the dialog makes', 30, 22],
  ['a day of 30-second codes', 30, 2880],
  ['a day of one-minute codes', 60, 1440],
])('a link longer than the sharing dialog makes is refused: %s', async (_, step, count) => {
  await visitLinkOf({ startTime: Date.now() - 1000, step, codes: codesText(count) });
  renderInShell(<SharePage />);
  expect(await screen.findByRole('alert')).toHaveTextContent(/it lasts longer than a share link can/);
  expect(screen.queryByText('000 000')).toBeNull();
});

test('a link whose key does not match cannot be opened', async () => {
  await visitLinkOf({ startTime: Date.now(), step: 30, codes: '123456' }, { wrongKey: true });
  renderInShell(<SharePage />);
  expect(await screen.findByRole('alert')).toHaveTextContent(/its key does not match its data/);
});

test('a link that holds something else cannot be opened', async () => {
  await visitLinkOf({ hello: 'world' });
  renderInShell(<SharePage />);
  expect(await screen.findByRole('alert')).toHaveTextContent(/does not hold codes that this page can show/);
});

test('a link without its key is malformed', async () => {
  await visitLinkOf({ startTime: Date.now(), step: 30, codes: '123456' });
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  renderInShell(<SharePage />);
  expect(await screen.findByRole('alert')).toHaveTextContent(/This link is malformed/);
});
