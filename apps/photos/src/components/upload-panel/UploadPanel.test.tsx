import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import type { UploadItem, UploadQueueSnapshot } from '../../upload/queue.ts';
import { UploadError } from '../../upload/types.ts';
import { UploadPanel } from './UploadPanel.tsx';

beforeAll(() => loadNamespace('photos'));

const target = { collectionID: 1, collectionKey: 'k' };
const item = (id: number, name: string, rest: Partial<UploadItem>): UploadItem => ({
  id,
  file: new File(['x'], name),
  target,
  status: 'queued',
  done: 0,
  total: 100,
  ...rest,
});

function renderPanel(snapshot: UploadQueueSnapshot) {
  const queue = {
    onCancel: jest.fn<(id: number) => void>(),
    onCancelAll: jest.fn(),
    onRetry: jest.fn<(id: number) => void>(),
    onRetryFailed: jest.fn(),
    onClearFinished: jest.fn(),
  };
  renderInShell(<UploadPanel snapshot={snapshot} {...queue} />);
  return queue;
}

test('while uploading: how many are left, the overall and each running file’s progress, cancel one or all', async () => {
  const user = userEvent.setup();
  const queue = renderPanel({
    items: [
      item(1, 'a.jpg', { status: 'uploading', done: 40 }),
      item(2, 'b.jpg', { status: 'queued' }),
      item(3, 'c.jpg', { status: 'done', done: 100, outcome: { kind: 'skipped', existingFileID: 9 } }),
      item(4, 'd.heic', { status: 'failed', error: new UploadError('storageLimit') }),
    ],
    progress: { done: 140, total: 300 },
    pending: 2,
  });
  const panel = await screen.findByRole('region', { name: 'Uploads' });
  expect(within(panel).getByRole('heading', { name: 'Uploading — files left: 2' })).toBeInTheDocument();
  expect(within(panel).getByRole('progressbar', { name: 'Overall progress' })).toHaveAttribute('aria-valuenow', '47');
  expect(within(panel).getByRole('progressbar', { name: 'Progress of a.jpg' })).toHaveAttribute('aria-valuenow', '40');
  const lines = within(panel)
    .getAllByRole('listitem')
    .map((line) => line.textContent);
  expect(lines).toEqual([
    'a.jpgUploading',
    'b.jpgWaiting',
    'c.jpgAlready in this album: skipped',
    'd.heicYour storage is full',
  ]);
  // Nothing announced until every file has ended.
  expect(screen.getByRole('status')).toHaveTextContent('');

  await user.click(within(panel).getByRole('button', { name: 'Cancel b.jpg' }));
  expect(queue.onCancel).toHaveBeenCalledWith(2);
  await user.click(within(panel).getByRole('button', { name: 'Retry d.heic' }));
  expect(queue.onRetry).toHaveBeenCalledWith(4);
  await user.click(within(panel).getByRole('button', { name: 'Cancel all' }));
  await user.click(within(panel).getByRole('button', { name: 'Retry failed' }));
  await user.click(within(panel).getByRole('button', { name: 'Clear finished' }));
  expect([queue.onCancelAll, queue.onRetryFailed, queue.onClearFinished].map((f) => f.mock.calls.length)).toEqual([
    1, 1, 1,
  ]);
  expect(within(panel).queryByRole('button', { name: 'Cancel c.jpg' })).not.toBeInTheDocument();
});

test('once all have ended: finished, said to screen readers; the list folds away', async () => {
  const user = userEvent.setup();
  renderPanel({
    items: [
      item(1, 'a.jpg', { status: 'done', done: 100, outcome: { kind: 'added', existingFileID: 3 } }),
      item(2, 'b.jpg', { status: 'cancelled' }),
    ],
    progress: { done: 100, total: 100 },
    pending: 0,
  });
  const panel = await screen.findByRole('region', { name: 'Uploads' });
  expect(screen.getByRole('status')).toHaveTextContent('Uploads finished');
  expect(within(panel).queryByRole('button', { name: 'Cancel all' })).not.toBeInTheDocument();
  expect(
    within(panel)
      .getAllByRole('listitem')
      .map((line) => line.textContent),
  ).toEqual(['a.jpgAdded from another of your albums', 'b.jpgCancelled']);
  await user.click(within(panel).getByRole('button', { name: 'Hide the files' }));
  expect(within(panel).queryAllByRole('listitem')).toHaveLength(0);
  expect(within(panel).getByRole('button', { name: 'Show the files' })).toHaveAttribute('aria-expanded', 'false');
});

test('no uploads: no panel', () => {
  renderPanel({ items: [], progress: { done: 0, total: 0 }, pending: 0 });
  expect(screen.queryByRole('region')).not.toBeInTheDocument();
});
