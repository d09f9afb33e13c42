import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';

import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { RecoveryWords } from './RecoveryWords.tsx';

const words = Array.from({ length: 24 }, (_, i) => `word${i + 1}`).join(' ');

function Harness() {
  const [saved, setSaved] = useState(false);
  return <RecoveryWords words={words} saved={saved} onSavedChange={setSaved} />;
}

afterEach(() => {
  jest.restoreAllMocks();
});

test('shows the 24 words as a numbered list, in order', () => {
  renderInShell(<Harness />);
  const list = screen.getByRole('list', { name: 'Your recovery key' });
  const items = within(list).getAllByRole('listitem');
  expect(items).toHaveLength(24);
  expect(items[0]).toHaveTextContent('1.word1');
  expect(items[23]).toHaveTextContent('24.word24');
});

test('copies the words to the clipboard and says so', async () => {
  const user = userEvent.setup();
  const writeText = jest.spyOn(navigator.clipboard, 'writeText');
  renderInShell(<Harness />);
  await user.click(screen.getByRole('button', { name: 'Copy' }));
  expect(writeText).toHaveBeenCalledWith(words);
  expect(screen.getByRole('status')).toHaveTextContent('Copied to the clipboard.');
});

test('says so when the clipboard refuses', async () => {
  const user = userEvent.setup();
  jest.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
  renderInShell(<Harness />);
  await user.click(screen.getByRole('button', { name: 'Copy' }));
  expect(await screen.findByText('Could not copy. Write the words down or download them instead.')).toBeInTheDocument();
});

test('downloads the words as ente-recovery-key.txt', async () => {
  let blob: Blob | undefined;
  URL.createObjectURL = jest.fn((object: Blob) => {
    blob = object;
    return 'blob:recovery';
  });
  URL.revokeObjectURL = jest.fn();
  const clicked: HTMLAnchorElement[] = [];
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this);
  });
  const user = userEvent.setup();
  renderInShell(<Harness />);
  await user.click(screen.getByRole('button', { name: 'Download' }));
  expect(clicked).toHaveLength(1);
  expect(clicked[0]?.download).toBe('ente-recovery-key.txt');
  expect(clicked[0]?.href).toBe('blob:recovery');
  expect(await blob?.text()).toBe(`${words}\n`);
});

test('without onSavedChange there is no box', () => {
  renderInShell(<RecoveryWords words={words} />);
  expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
});

test('the "I saved it" box can be ticked', async () => {
  const user = userEvent.setup();
  renderInShell(<Harness />);
  const box = screen.getByRole('checkbox', { name: 'I saved my recovery key in a safe place.' });
  expect(box).not.toBeChecked();
  await user.click(box);
  expect(box).toBeChecked();
});
