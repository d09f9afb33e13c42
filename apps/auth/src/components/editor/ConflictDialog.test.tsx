// The conflict of a write that lost the race: both versions side by side with the rows that differ
// marked (the secret never shown), or "deleted elsewhere"; each button resolves with its choice.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { codeData } from '../../services/code-edits.ts';
import type { VaultConflict } from '../../vault/vault.ts';
import { ConflictDialog } from './ConflictDialog.tsx';
import { codeOf } from './testing/fixtures.ts';

beforeAll(async () => {
  await loadNamespace('codes');
});

const theirs = codeOf({ issuer: 'GitHub', account: 'alice', display: { tags: ['Work'], note: 'from the phone' } });
const mine = { ...codeData(theirs), display: { ...theirs.display, note: 'from the web', pinned: true } };

/** The row of a field: its header cell and its values. */
function row(name: string) {
  const header = screen.getByRole('rowheader', { name: new RegExp(`^${name}`) });
  return header.closest('tr')!;
}

test('shows both versions with the differing rows marked; "Keep mine" resolves with mine', async () => {
  const user = userEvent.setup();
  const onResolve = jest.fn((_choice: 'mine' | 'theirs') => Promise.resolve());
  const conflict: VaultConflict = { id: theirs.id, mine, theirs: { kind: 'code', code: theirs } };
  renderInShell(<ConflictDialog conflict={conflict} onResolve={onResolve} />);

  const dialog = screen.getByRole('dialog', { name: 'This code was changed on another device' });
  expect(within(dialog).getByRole('columnheader', { name: 'Your version' })).toBeVisible();
  expect(within(dialog).getByRole('columnheader', { name: 'Saved version' })).toBeVisible();
  expect(row('Note')).toHaveAttribute('data-differs', 'true');
  expect(within(row('Note')).getByRole('rowheader')).toHaveTextContent('Note (differs)');
  expect(
    within(row('Note'))
      .getAllByRole('cell')
      .map((cell) => cell.textContent),
  ).toEqual(['from the web', 'from the phone']);
  expect(row('Pinned')).toHaveAttribute('data-differs', 'true');
  expect(row('Issuer')).not.toHaveAttribute('data-differs');
  expect(row('Tags')).not.toHaveAttribute('data-differs');
  expect(row('Secret key')).not.toHaveAttribute('data-differs');
  expect(dialog).not.toHaveTextContent(theirs.secret);

  await user.click(within(dialog).getByRole('button', { name: 'Keep mine' }));
  expect(onResolve).toHaveBeenCalledWith('mine');
});

test('"Keep the saved version" resolves with theirs; a failure is shown and the choice can be made again', async () => {
  const user = userEvent.setup();
  const onResolve = jest.fn<(choice: 'mine' | 'theirs') => Promise<void>>().mockRejectedValueOnce(new Error('offline'));
  const conflict: VaultConflict = {
    id: theirs.id,
    mine: { ...mine, secret: 'GEZDGNBVGY3TQOJQ' },
    theirs: { kind: 'code', code: theirs },
  };
  renderInShell(<ConflictDialog conflict={conflict} onResolve={onResolve} />);
  expect(row('Secret key')).toHaveAttribute('data-differs', 'true');
  await user.click(screen.getByRole('button', { name: 'Keep the saved version' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('That did not work. Try again.');
  onResolve.mockResolvedValueOnce(undefined);
  await user.click(screen.getByRole('button', { name: 'Keep the saved version' }));
  await waitFor(() => expect(onResolve).toHaveBeenCalledTimes(2));
  expect(onResolve).toHaveBeenLastCalledWith('theirs');
});

test('a code deleted elsewhere says so and shows only the user’s version', async () => {
  const user = userEvent.setup();
  const onResolve = jest.fn((_choice: 'mine' | 'theirs') => Promise.resolve());
  renderInShell(<ConflictDialog conflict={{ id: theirs.id, mine, theirs: 'deleted' }} onResolve={onResolve} />);
  expect(screen.getByText(/This code was deleted on another device/)).toBeVisible();
  expect(screen.queryByRole('columnheader', { name: 'Saved version' })).not.toBeInTheDocument();
  expect(within(row('Note')).getByRole('cell')).toHaveTextContent('from the web');
  await user.click(screen.getByRole('button', { name: 'Keep the saved version' }));
  expect(onResolve).toHaveBeenCalledWith('theirs');
});

test('no conflict, no dialog', () => {
  renderInShell(<ConflictDialog conflict={undefined} onResolve={() => Promise.resolve()} />);
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
});
