import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { FileType, type GalleryFile } from '../../library/types.ts';
import { fileAt, fileOfType } from '../testing/files.ts';
import type { LoadSlide } from './slide-loader.ts';
import { Slideshow } from './Slideshow.tsx';

beforeAll(() => loadNamespace('photos'));
beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});

// Newest first in the grid: IMG_1 (June), IMG_2 (May), IMG_3 (April); the video is between them.
const photos = [
  fileAt(1, new Date(2025, 5, 1)),
  fileAt(2, new Date(2025, 4, 1)),
  fileOfType(9, new Date(2025, 4, 15), 'clip.mp4', FileType.video),
  fileAt(3, new Date(2025, 3, 1)),
];

function show(files: readonly GalleryFile[], failing: readonly number[] = []) {
  const loaded: number[] = [];
  const released: number[] = [];
  const loadSlide: LoadSlide = (file) => {
    loaded.push(file.id);
    if (failing.includes(file.id)) return Promise.reject(new Error('not found'));
    return Promise.resolve({ url: `blob:slide-${file.id}`, release: () => released.push(file.id) });
  };
  const onClose = jest.fn();
  const user = userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms) });
  renderInShell(<Slideshow files={files} loadSlide={loadSlide} onClose={onClose} random={() => 0} />);
  return { loaded, released, onClose, user };
}

/** Lets the loads settle, then moves the clock on. */
async function wait(ms: number) {
  await act(async () => {
    await jest.advanceTimersByTimeAsync(ms);
  });
}

const shown = () => screen.getByRole('img').getAttribute('alt');

test('photos in the grid’s order at the interval, each loaded before it is due, videos left out', async () => {
  const { loaded } = show(photos);
  await wait(0);
  expect(shown()).toBe('IMG_1.jpg');
  expect(screen.getByText('1 of 3')).toBeInTheDocument();
  // The next one is loaded (and decoded) while the first is on screen.
  expect(loaded).toEqual([1, 2]);
  await wait(4900);
  expect(shown()).toBe('IMG_1.jpg');
  await wait(100);
  expect(shown()).toBe('IMG_2.jpg');
  expect(loaded).toEqual([1, 2, 3]);
  await wait(5000);
  expect(shown()).toBe('IMG_3.jpg');
  await wait(5000);
  expect(shown()).toBe('IMG_1.jpg');
  expect(loaded).not.toContain(9);
});

test('pause holds the photo; next, previous and the arrow keys move; a shorter time per photo plays faster', async () => {
  const { user } = show(photos);
  await wait(0);
  await user.click(screen.getByRole('button', { name: 'Pause' }));
  await wait(20_000);
  expect(shown()).toBe('IMG_1.jpg');
  // Each move, then what is shown once the slide loaded.
  const moves: [() => Promise<void>, string][] = [
    [() => user.click(screen.getByRole('button', { name: 'Next photo' })), 'IMG_2.jpg'],
    [() => user.keyboard('{ArrowRight}'), 'IMG_3.jpg'],
    [() => user.click(screen.getByRole('button', { name: 'Previous photo' })), 'IMG_2.jpg'],
    [() => user.keyboard('{ArrowLeft}'), 'IMG_1.jpg'],
  ];
  for (const [move, expected] of moves) {
    await move();
    await wait(0);
    expect(shown()).toBe(expected);
  }

  await user.click(screen.getByRole('button', { name: '3 s' }));
  expect(screen.getByRole('button', { name: '3 s' })).toHaveAttribute('aria-pressed', 'true');
  await user.click(screen.getByRole('button', { name: 'Play' }));
  await wait(3000);
  expect(shown()).toBe('IMG_2.jpg');
});

test('Space pauses and plays; shuffle is a pressed button; Escape and the close button leave', async () => {
  const { user, onClose } = show(photos);
  await wait(0);
  screen.getByRole('dialog').focus();
  await user.keyboard(' ');
  expect(screen.getByRole('button', { name: 'Play' })).toBeInTheDocument();
  await user.keyboard(' ');
  expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
  const shuffle = screen.getByRole('button', { name: 'Shuffle' });
  expect(shuffle).toHaveAttribute('aria-pressed', 'false');
  await user.click(shuffle);
  expect(shuffle).toHaveAttribute('aria-pressed', 'true');
  // The photo shown stays the first of the shuffled round.
  expect(shown()).toBe('IMG_1.jpg');
  await user.keyboard('{Escape}');
  expect(onClose).toHaveBeenCalledTimes(1);
  await user.click(screen.getByRole('button', { name: 'Leave the slideshow' }));
  expect(onClose).toHaveBeenCalledTimes(2);
});

test('a photo that does not load is skipped; with none that loads, the show says there is nothing to show', async () => {
  show(photos, [2]);
  await wait(0);
  expect(shown()).toBe('IMG_1.jpg');
  await wait(5000);
  expect(shown()).toBe('IMG_3.jpg');

  show([fileAt(5, new Date(2025, 0, 1))], [5]);
  await wait(0);
  expect(screen.getByRole('alert')).toHaveTextContent('There is no photo to show here.');
});

test('slides no longer shown nor next are released', async () => {
  const { released } = show([...photos, fileAt(4, new Date(2025, 2, 1))]);
  await wait(0);
  expect(released).toEqual([]);
  await wait(5000);
  // IMG_1 is the layer under IMG_2 for the fade; it is released once IMG_3 is shown.
  expect(released).toEqual([]);
  await wait(5000);
  expect(released).toEqual([1]);
});
