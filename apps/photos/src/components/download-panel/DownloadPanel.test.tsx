import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import type { DownloadTask } from '../../download/downloads.ts';
import { DownloadPanel } from './DownloadPanel.tsx';

beforeAll(() => loadNamespace('photos'));

const task = (id: number, name: string, rest: Partial<DownloadTask>): DownloadTask => ({
  id,
  name,
  status: 'running',
  progress: { filesDone: 0, filesTotal: 1, bytesDone: 0, bytesTotal: 0 },
  skipped: [],
  ...rest,
});

function renderPanel(tasks: DownloadTask[]) {
  const onCancel = jest.fn<(id: number) => void>();
  const onRetry = jest.fn<(id: number) => void>();
  const onClearFinished = jest.fn();
  renderInShell(
    <DownloadPanel tasks={tasks} onCancel={onCancel} onRetry={onRetry} onClearFinished={onClearFinished} />,
  );
  return { onCancel, onRetry, onClearFinished };
}

test('a running ZIP: files and bytes done of the total, the file being read, a bar, and cancel', async () => {
  const user = userEvent.setup();
  const { onCancel } = renderPanel([
    task(7, 'Holiday.zip', {
      progress: { filesDone: 2, filesTotal: 5, bytesDone: 3 * 1024 * 1024, bytesTotal: 12 * 1024 * 1024 },
      current: 'sunset.jpg',
    }),
  ]);
  const panel = screen.getByRole('region', { name: 'Downloads' });
  expect(within(panel).getByRole('heading', { name: 'Downloading — downloads left: 1' })).toBeInTheDocument();
  expect(within(panel).getByText('Files: 2 of 5 · 3 MB of 12 MB')).toBeInTheDocument();
  expect(within(panel).getByText('Now: sunset.jpg')).toBeInTheDocument();
  expect(within(panel).getByRole('progressbar', { name: 'Progress of Holiday.zip' })).toHaveAttribute(
    'aria-valuenow',
    '25',
  );
  expect(within(panel).queryByRole('button', { name: 'Clear finished' })).not.toBeInTheDocument();
  expect(within(panel).queryByRole('button', { name: /^Try downloading/ })).not.toBeInTheDocument();
  await user.click(within(panel).getByRole('button', { name: 'Cancel the download of Holiday.zip' }));
  expect(onCancel).toHaveBeenCalledWith(7);
});

test('how downloads ended: done with the files left out and why, failed and why, cancelled; clear', async () => {
  const user = userEvent.setup();
  const { onClearFinished } = renderPanel([
    task(1, 'Holiday.zip', {
      status: 'done',
      skipped: [
        { title: 'gone.jpg', reason: 'notFound' },
        { title: 'bad.heic', reason: 'damaged' },
      ],
    }),
    task(2, 'Big.zip', { status: 'failed', error: 'tooLarge' }),
    task(3, 'IMG_1.jpg', { status: 'cancelled' }),
  ]);
  const panel = screen.getByRole('region', { name: 'Downloads' });
  // One failed: the title says so.
  expect(within(panel).getByRole('heading', { name: 'Downloads ended — failed: 1' })).toBeInTheDocument();
  expect(screen.getByRole('status')).toHaveTextContent('Downloads ended — failed: 1');
  expect(within(panel).getByText('Downloaded')).toBeInTheDocument();
  expect(within(panel).getByText('Left out of the ZIP: 2')).toBeInTheDocument();
  expect(within(panel).getByText('gone.jpg: no longer on the server')).toBeInTheDocument();
  expect(within(panel).getByText('bad.heic: it did not decrypt: the file is damaged')).toBeInTheDocument();
  expect(within(panel).getByText('Failed: too large to download in this browser')).toBeInTheDocument();
  expect(within(panel).getByText('Cancelled')).toBeInTheDocument();
  expect(within(panel).queryByRole('progressbar')).not.toBeInTheDocument();
  await user.click(within(panel).getByRole('button', { name: 'Clear finished' }));
  expect(onClearFinished).toHaveBeenCalled();
});

test('nothing to show without downloads', () => {
  renderPanel([]);
  expect(screen.queryByRole('region', { name: 'Downloads' })).not.toBeInTheDocument();
});

test('a failed download: the title counts it, the row says why, and Try again (by keyboard) asks for it again', async () => {
  const user = userEvent.setup();
  const { onRetry } = renderPanel([
    task(1, 'IMG_1.jpg', { status: 'done' }),
    task(2, 'Summer.zip', { status: 'failed', error: 'network' }),
    task(3, 'IMG_3.jpg', { status: 'cancelled' }),
  ]);
  const panel = screen.getByRole('region', { name: 'Downloads' });
  expect(within(panel).getByRole('heading', { name: 'Downloads ended — failed: 1' })).toBeInTheDocument();
  expect(screen.getByRole('status')).toHaveTextContent('Downloads ended — failed: 1');
  expect(within(panel).getByText('Failed: no connection')).toBeInTheDocument();
  // Done: nothing to try again; failed and cancelled: Try again.
  expect(within(panel).queryByRole('button', { name: 'Try downloading IMG_1.jpg again' })).not.toBeInTheDocument();
  expect(within(panel).getByRole('button', { name: 'Try downloading IMG_3.jpg again' })).toBeInTheDocument();
  const retry = within(panel).getByRole('button', { name: 'Try downloading Summer.zip again' });
  act(() => retry.focus());
  await user.keyboard('{Enter}');
  expect(onRetry).toHaveBeenCalledWith(2);
});

test('downloads that all ended well: finished', () => {
  renderPanel([task(1, 'IMG_1.jpg', { status: 'done' }), task(2, 'IMG_2.jpg', { status: 'cancelled' })]);
  expect(screen.getByRole('heading', { name: 'Downloads finished' })).toBeInTheDocument();
});
