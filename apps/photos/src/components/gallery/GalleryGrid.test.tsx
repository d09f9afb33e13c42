import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { FileType, type GalleryFile } from '../../library/types.ts';
import { fileAt, fileOfType, manyFiles } from '../testing/files.ts';
import { GalleryGrid } from './GalleryGrid.tsx';
import { thumbnailFromHook } from './Thumbnail.tsx';

beforeAll(async () => {
  await loadNamespace('photos');
  // jsdom does not scroll; the virtualizer scrolls the focused row into view with it.
  jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});

const now = new Date(2025, 5, 10, 15).getTime();

test('with 10,000 files the DOM holds only the rows on screen and a few more', async () => {
  const files = manyFiles(10_000, new Date(2025, 5, 10, 12));
  renderInShell(<GalleryGrid files={files} onOpen={jest.fn()} now={now} />);
  const grid = await screen.findByRole('grid', { name: 'Photos by day' });
  // 10,000 files a minute apart from noon: 721 files that day, 6 days of 1,440, 639 on the 8th; 6 to a row at
  // jsdom's 1024 px; a header row per day.
  expect(Number(grid.getAttribute('aria-rowcount'))).toBe(8 + Math.ceil(721 / 6) + 6 * 240 + Math.ceil(639 / 6));
  expect(within(grid).getAllByRole('row').length).toBeLessThan(15);
  expect(within(grid).getAllByRole('gridcell').length).toBeLessThan(80);
  expect(within(grid).getByRole('heading', { level: 2 })).toHaveTextContent('Today');
  // The newest first.
  expect(within(grid).getAllByRole('button')[0]).toHaveAccessibleName('IMG_1.jpg');
});

test('days: Today, Yesterday, then the date; each cell a button named by its title and badge', async () => {
  const files = [
    fileAt(1, new Date(2025, 5, 10, 9)),
    fileOfType(2, new Date(2025, 5, 9, 9), 'clip.mp4', FileType.video),
    fileOfType(3, new Date(2025, 4, 1, 9), 'live.heic', FileType.livePhoto),
  ];
  renderInShell(<GalleryGrid files={files} onOpen={jest.fn()} now={now} />);
  const grid = await screen.findByRole('grid');
  expect(
    within(grid)
      .getAllByRole('heading', { level: 2 })
      .map((h) => h.textContent),
  ).toEqual(['Today', 'Yesterday', 'Thu, May 1']);
  expect(within(grid).getAllByRole('button')).toHaveLength(3);
  expect(within(grid).getByRole('button', { name: 'IMG_1.jpg' })).toBeInTheDocument();
  expect(within(grid).getByRole('button', { name: 'clip.mp4 Video' })).toBeInTheDocument();
  expect(within(grid).getByRole('button', { name: 'live.heic Live photo' })).toBeInTheDocument();
});

test('the thumbnail comes from the loader hook: an image named by the title once its URL is there', async () => {
  const useThumbnail = (file: GalleryFile) =>
    file.id === 1 ? { url: 'blob:thumb-1' } : file.id === 3 ? { failed: true } : {};
  const Thumbnail = thumbnailFromHook(useThumbnail);
  renderInShell(
    <GalleryGrid
      files={[fileAt(1, new Date(2025, 5, 10)), fileAt(2, new Date(2025, 5, 10)), fileAt(3, new Date(2025, 5, 10))]}
      Thumbnail={Thumbnail}
      onOpen={jest.fn()}
      now={now}
    />,
  );
  const image = await screen.findByRole('img', { name: 'IMG_1.jpg' });
  expect(image.tagName).toBe('IMG');
  expect(image).toHaveAttribute('src', 'blob:thumb-1');
  // Still loading: the placeholder, named the same; one that failed is marked broken.
  expect(screen.getByRole('img', { name: 'IMG_2.jpg' }).tagName).toBe('DIV');
  expect(screen.getByRole('img', { name: 'IMG_2.jpg' }).querySelector('svg')).toBeNull();
  expect(screen.getByRole('img', { name: 'IMG_3.jpg' }).querySelector('svg')).not.toBeNull();
});

test('a click or Enter opens the file with its place in the grid order; the arrows move across rows and days', async () => {
  const user = userEvent.setup();
  const onOpen = jest.fn<(file: GalleryFile, index: number, ordered: readonly GalleryFile[]) => void>();
  // Today 8 files (6 + 2 rows), yesterday 3.
  const files = [
    ...Array.from({ length: 8 }, (_, i) => fileAt(i + 1, new Date(2025, 5, 10, 12, 59 - i))),
    ...Array.from({ length: 3 }, (_, i) => fileAt(i + 11, new Date(2025, 5, 9, 12, 59 - i))),
  ];
  renderInShell(<GalleryGrid files={files} onOpen={onOpen} now={now} />);
  const grid = await screen.findByRole('grid');
  await user.click(within(grid).getByRole('button', { name: 'IMG_3.jpg' }));
  expect(onOpen).toHaveBeenCalledTimes(1);
  const [file, index, ordered] = onOpen.mock.calls[0] ?? [];
  expect([file?.id, index, ordered?.map((f) => f.id)]).toEqual([3, 2, [1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13]]);

  // Only the focused cell is a tab stop.
  expect(
    within(grid)
      .getAllByRole('button')
      .filter((b) => b.tabIndex === 0),
  ).toEqual([within(grid).getByRole('button', { name: 'IMG_3.jpg' })]);
  await user.keyboard('{ArrowDown}');
  expect(within(grid).getByRole('button', { name: 'IMG_8.jpg' })).toHaveFocus(); // the shorter row's last
  await user.keyboard('{ArrowDown}');
  expect(within(grid).getByRole('button', { name: 'IMG_12.jpg' })).toHaveFocus(); // yesterday, same column
  await user.keyboard('{ArrowRight}{ArrowRight}');
  expect(within(grid).getByRole('button', { name: 'IMG_13.jpg' })).toHaveFocus(); // the end stays
  await user.keyboard('{Home}');
  expect(within(grid).getByRole('button', { name: 'IMG_1.jpg' })).toHaveFocus();
  await user.keyboard('{ArrowLeft}{ArrowUp}');
  expect(within(grid).getByRole('button', { name: 'IMG_1.jpg' })).toHaveFocus();
  await user.keyboard('{End}{Enter}');
  expect(onOpen).toHaveBeenCalledTimes(2);
  expect(onOpen.mock.calls[1]?.[0].id).toBe(13);
});

test('the column count follows the width: a phone gets rows of 3', async () => {
  const width = window.innerWidth;
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: 390 });
  try {
    renderInShell(<GalleryGrid files={manyFiles(10)} onOpen={jest.fn()} now={now} />);
    const grid = await screen.findByRole('grid');
    expect(grid).toHaveAttribute('aria-colcount', '3');
    const rows = within(grid).getAllByRole('row');
    // The day's header, then 3 + 3 + 3 + 1.
    expect(rows.map((row) => within(row).queryAllByRole('button').length)).toEqual([0, 3, 3, 3, 1]);
  } finally {
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  }
});

describe('the scroll margin follows what is above the grid', () => {
  // jsdom lays nothing out: the grid starts `above` px down the page, and the test fires the ResizeObserver.
  let above = 100;
  const observers: { fire: () => void; targets: Set<Element> }[] = [];
  class TestResizeObserver {
    private readonly targets = new Set<Element>();
    constructor(callback: ResizeObserverCallback) {
      observers.push({ fire: () => callback([], this), targets: this.targets });
    }
    observe(target: Element) {
      this.targets.add(target);
    }
    unobserve(target: Element) {
      this.targets.delete(target);
    }
    disconnect() {
      this.targets.clear();
    }
  }
  const resized = (element: Element) =>
    act(() => observers.filter(({ targets }) => targets.has(element)).forEach(({ fire }) => fire()));

  beforeEach(() => {
    above = 100;
    observers.length = 0;
    Object.assign(globalThis, { ResizeObserver: TestResizeObserver });
    // Over jsdom's own (Element.prototype's), taken away after.
    Object.defineProperty(HTMLElement.prototype, 'getBoundingClientRect', {
      configurable: true,
      value: function (this: HTMLElement) {
        const top = this.getAttribute('role') === 'grid' ? above - window.scrollY : 0;
        return { top, bottom: top, left: 0, right: 0, width: 0, height: 0, x: 0, y: top, toJSON: () => ({}) };
      },
    });
  });
  afterEach(() => {
    delete (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 0 });
    Reflect.deleteProperty(HTMLElement.prototype, 'getBoundingClientRect');
  });

  const files = manyFiles(10_000, new Date(2025, 5, 10, 12));
  /** The page as the layout makes it: a header, then the main element holding the grid. */
  const page = () => (
    <div>
      <header data-testid="header" />
      <main>
        <GalleryGrid files={files} onOpen={jest.fn()} now={now} />
      </main>
    </div>
  );
  const scrolledTo = (y: number) =>
    act(() => {
      Object.defineProperty(window, 'scrollY', { configurable: true, value: y });
      window.dispatchEvent(new Event('scroll'));
    });
  // The last row rendered (the first is always the focused file's, kept for the keyboard).
  const lastRow = async () => {
    const grid = await screen.findByRole('grid');
    return Number(within(grid).getAllByRole('row').at(-1)?.getAttribute('aria-rowindex'));
  };

  test('the header grows by 200 px: the rows rendered are those of a grid that started 200 px lower', async () => {
    // The grid as it is first drawn 300 px down, scrolled to 4,000 px: the rows to expect.
    above = 300;
    const { unmount } = renderInShell(page());
    scrolledTo(4000);
    const expected = await lastRow();
    unmount();

    // Drawn 100 px down, scrolled there, then the header grows (a banner, its buttons wrapping): 200 px lower.
    above = 100;
    observers.length = 0;
    renderInShell(page());
    scrolledTo(4000);
    const before = await lastRow();
    expect(before).toBeGreaterThan(expected);
    above = 300;
    resized(screen.getByTestId('header'));
    scrolledTo(4001);
    await waitFor(async () => expect(await lastRow()).toBe(expected));
  });
});
