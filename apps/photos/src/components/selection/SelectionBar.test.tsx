import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { SelectionBar } from './SelectionBar.tsx';

beforeAll(() => loadNamespace('photos'));

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
  const bar = screen.getByRole('toolbar', { name: 'Selected items' });
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
