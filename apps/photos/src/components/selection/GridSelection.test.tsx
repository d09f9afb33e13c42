// The gallery grid with a selection, as a page holds it: clicks, keys, a day's checkbox, a long press, a mouse drag.
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import type { GalleryFile } from '../../library/types.ts';
import { GalleryGrid } from '../gallery/GalleryGrid.tsx';
import { fileAt } from '../testing/files.ts';
import { installPointerEvent } from '../testing/pointer-event.ts';
import { emptySelection, type Selection } from './selection-model.ts';

beforeAll(async () => {
  await loadNamespace('photos');
  jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  installPointerEvent();
});

const now = new Date(2025, 5, 10, 15).getTime();
// Today 8 files (a row of 6, a row of 2), yesterday 3: ids 1–8, 11–13 in the grid's order.
const files = [
  ...Array.from({ length: 8 }, (_, i) => fileAt(i + 1, new Date(2025, 5, 10, 12, 59 - i))),
  ...Array.from({ length: 3 }, (_, i) => fileAt(i + 11, new Date(2025, 5, 9, 12, 59 - i))),
];

function renderGrid() {
  const onOpen = jest.fn<(file: GalleryFile) => void>();
  let current: Selection = emptySelection;
  function Page() {
    const [selection, setSelection] = useState(emptySelection);
    current = selection;
    return (
      <GalleryGrid files={files} onOpen={onOpen} selection={selection} onSelectionChange={setSelection} now={now} />
    );
  }
  renderInShell(<Page />);
  const selected = () => [...current.ids].sort((a, b) => a - b);
  return { onOpen, selected };
}

const cell = (name: string) => screen.getByRole('button', { name });

test('ctrl/cmd-click toggles; once something is selected a click toggles; shift-click extends; the cells say so', async () => {
  const user = userEvent.setup();
  const { onOpen, selected } = renderGrid();
  await screen.findByRole('grid', { name: 'Photos by day' });
  await user.click(cell('IMG_2.jpg'));
  expect(onOpen).toHaveBeenCalledTimes(1);
  expect(selected()).toEqual([]);

  await user.keyboard('{Control>}');
  await user.click(cell('IMG_2.jpg'));
  await user.keyboard('{/Control}');
  expect(selected()).toEqual([2]);
  await user.click(cell('IMG_4.jpg'));
  expect(selected()).toEqual([2, 4]);
  await user.keyboard('{Shift>}');
  await user.click(cell('IMG_12.jpg'));
  await user.keyboard('{/Shift}');
  // From the anchor (4) across the day boundary to 12.
  expect(selected()).toEqual([2, 4, 5, 6, 7, 8, 11, 12]);
  expect(onOpen).toHaveBeenCalledTimes(1);
  expect(cell('IMG_5.jpg').closest('[role=gridcell]')).toHaveAttribute('aria-selected', 'true');
  expect(cell('IMG_3.jpg').closest('[role=gridcell]')).toHaveAttribute('aria-selected', 'false');
  expect(screen.getByRole('checkbox', { name: 'Select IMG_5.jpg' })).toBeChecked();

  await user.keyboard('{Meta>}');
  await user.click(cell('IMG_5.jpg'));
  await user.keyboard('{/Meta}');
  expect(selected()).toEqual([2, 4, 6, 7, 8, 11, 12]);
});

test("a cell's checkbox and a day's checkbox select; the day's shows some or all", async () => {
  const user = userEvent.setup();
  const { onOpen, selected } = renderGrid();
  await screen.findByRole('grid');
  await user.click(screen.getByRole('checkbox', { name: 'Select IMG_12.jpg' }));
  expect(selected()).toEqual([12]);
  const yesterday = screen.getByRole('checkbox', { name: 'Select all of Yesterday' });
  expect(yesterday).toHaveAttribute('data-indeterminate', 'true');
  await user.click(yesterday);
  expect(selected()).toEqual([11, 12, 13]);
  expect(yesterday).toBeChecked();
  await user.click(yesterday);
  expect(selected()).toEqual([]);
  await user.click(screen.getByRole('checkbox', { name: 'Select all of Today' }));
  expect(selected()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(onOpen).not.toHaveBeenCalled();
});

test('keys: Space selects, Shift+Space extends, Ctrl+A selects all, Escape clears, Enter opens', async () => {
  const user = userEvent.setup();
  const { onOpen, selected } = renderGrid();
  const grid = await screen.findByRole('grid');
  expect(grid).toHaveAttribute('aria-multiselectable', 'true');
  // The day's checkbox, then the grid's one tab stop.
  await user.tab();
  expect(screen.getByRole('checkbox', { name: 'Select all of Today' })).toHaveFocus();
  await user.tab();
  expect(cell('IMG_1.jpg')).toHaveFocus();
  await user.keyboard('{ArrowRight} ');
  expect(selected()).toEqual([2]);
  await user.keyboard('{ArrowDown}{ArrowDown}{Shift>} {/Shift}');
  expect(selected()).toEqual([2, 3, 4, 5, 6, 7, 8, 11, 12]);
  await user.keyboard('{Escape}');
  expect(selected()).toEqual([]);
  await user.keyboard('{Control>}a{/Control}');
  expect(selected()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13]);
  await user.keyboard('{Escape}{Enter}');
  expect(onOpen).toHaveBeenCalledTimes(1);
  expect(onOpen.mock.calls[0]?.[0].id).toBe(12);
});

test('a long press on a touch screen selects, and its click does not toggle back', () => {
  jest.useFakeTimers();
  try {
    const { onOpen, selected } = renderGrid();
    const button = within(screen.getByRole('grid')).getByRole('button', { name: 'IMG_3.jpg' });
    fireEvent.pointerDown(button, { pointerType: 'touch', clientX: 10, clientY: 10 });
    act(() => jest.advanceTimersByTime(600));
    expect(selected()).toEqual([3]);
    fireEvent.pointerUp(button, { pointerType: 'touch' });
    fireEvent.click(button);
    expect(selected()).toEqual([3]);
    // A touch that moves is a scroll, not a press.
    const other = screen.getByRole('button', { name: 'IMG_4.jpg' });
    fireEvent.pointerDown(other, { pointerType: 'touch', clientX: 10, clientY: 10 });
    fireEvent.pointerMove(other, { pointerType: 'touch', clientX: 10, clientY: 60 });
    act(() => jest.advanceTimersByTime(600));
    expect(selected()).toEqual([3]);
    expect(onOpen).not.toHaveBeenCalled();
  } finally {
    jest.useRealTimers();
  }
});

test('a mouse dragged from a cell across others selects the range it covers, added to the selection; a still press clicks', async () => {
  const { onOpen, selected } = renderGrid();
  await screen.findByRole('grid', { name: 'Photos by day' });
  const mouse = { pointerType: 'mouse', button: 0, buttons: 1 };
  fireEvent.pointerDown(cell('IMG_2.jpg'), mouse);
  fireEvent.pointerMove(cell('IMG_2.jpg'), mouse);
  expect(selected()).toEqual([]);
  fireEvent.pointerMove(cell('IMG_6.jpg'), mouse);
  expect(selected()).toEqual([2, 3, 4, 5, 6]);
  // Back towards the start: the range shrinks.
  fireEvent.pointerMove(cell('IMG_3.jpg'), mouse);
  expect(selected()).toEqual([2, 3]);
  // Let go on a cell: its click is the drag's end, and opens or toggles nothing.
  fireEvent.pointerUp(cell('IMG_3.jpg'), mouse);
  fireEvent.click(cell('IMG_3.jpg'));
  expect(selected()).toEqual([2, 3]);
  // The button is up: moving over cells selects nothing more.
  fireEvent.pointerMove(cell('IMG_8.jpg'), { pointerType: 'mouse', buttons: 0 });
  expect(selected()).toEqual([2, 3]);
  // A second drag, across days, adds to what was selected.
  fireEvent.pointerDown(cell('IMG_12.jpg'), mouse);
  fireEvent.pointerMove(cell('IMG_13.jpg'), mouse);
  window.dispatchEvent(new Event('pointerup'));
  fireEvent.pointerMove(cell('IMG_11.jpg'), mouse);
  expect(selected()).toEqual([2, 3, 12, 13]);
  // A press that does not move is a click (which toggles while something is selected).
  fireEvent.pointerDown(cell('IMG_8.jpg'), mouse);
  fireEvent.pointerUp(cell('IMG_8.jpg'), mouse);
  fireEvent.click(cell('IMG_8.jpg'));
  expect(selected()).toEqual([2, 3, 8, 12, 13]);
  expect(onOpen).not.toHaveBeenCalled();
});
