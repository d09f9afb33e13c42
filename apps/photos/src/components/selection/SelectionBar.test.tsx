import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { lazyModule } from '../../app/lazy-module.ts';
import { SelectionBar } from './SelectionBar.tsx';

// The app's own helper, watched: the bar's toolbar loads through it rather than a loader of their own.
jest.mock('../../app/lazy-module.ts', () => {
  const actual = jest.requireActual<{ lazyModule: typeof lazyModule }>('../../app/lazy-module.ts');
  return { lazyModule: jest.fn(actual.lazyModule) };
});

beforeAll(() => loadNamespace('photos'));

test('the toolbar and its icons are a lazy module of the app’s helper, fetched only once something is selected', async () => {
  expect(lazyModule).toHaveBeenCalledTimes(1);
  const toolbar = jest.mocked(lazyModule).mock.results[0]?.value as ReturnType<typeof lazyModule>;
  expect(toolbar.loaded()).toBeUndefined();
  const { rerender } = renderInShell(<SelectionBar count={0} onClear={jest.fn()} onDownload={jest.fn()} />);
  expect(toolbar.loaded()).toBeUndefined();
  rerender(<SelectionBar count={1} onClear={jest.fn()} onDownload={jest.fn()} />);
  await waitFor(() => expect(toolbar.loaded()).toHaveProperty('SelectionToolbar'));
  expect((await screen.findByRole('button', { name: 'Download' })).querySelector('svg')).not.toBeNull();
});

test('the bar shows the count and runs each action; what the page does not give is not offered', async () => {
  const user = userEvent.setup();
  const actions = {
    onClear: jest.fn(),
    onAddToAlbum: jest.fn(),
    onDownload: jest.fn(),
    onSlideshow: jest.fn(),
    onTrash: jest.fn(),
  };
  const { rerender } = renderInShell(<SelectionBar count={0} {...actions} />);
  expect(screen.queryByRole('toolbar')).not.toBeInTheDocument();
  expect(screen.getByRole('status')).toHaveTextContent('');

  rerender(<SelectionBar count={3} {...actions} />);
  const bar = await screen.findByRole('toolbar', { name: 'Selected items' });
  expect(screen.getByRole('status')).toHaveTextContent('3 selected');
  expect(
    within(bar)
      .getAllByRole('button')
      .map((b) => b.textContent || b.getAttribute('aria-label')),
  ).toEqual(['Clear selection', 'Add to album', 'Download', 'Slideshow', 'Move to trash']);
  // The actions' icons arrive once something is selected (fetched then), one per button.
  await waitFor(() => expect(bar.querySelectorAll('button svg')).toHaveLength(5));
  await user.click(within(bar).getByRole('button', { name: 'Add to album' }));
  await user.click(within(bar).getByRole('button', { name: 'Download' }));
  await user.click(within(bar).getByRole('button', { name: 'Slideshow' }));
  await user.click(within(bar).getByRole('button', { name: 'Move to trash' }));
  expect(
    [actions.onAddToAlbum, actions.onDownload, actions.onSlideshow, actions.onTrash].map((f) => f.mock.calls.length),
  ).toEqual([1, 1, 1, 1]);
  await user.keyboard('{Escape}');
  expect(actions.onClear).toHaveBeenCalledTimes(1);
  await user.click(within(bar).getByRole('button', { name: 'Clear selection' }));
  expect(actions.onClear).toHaveBeenCalledTimes(2);
});
