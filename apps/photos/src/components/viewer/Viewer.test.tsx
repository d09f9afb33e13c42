import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { FileType, type GalleryFile } from '../../library/types.ts';
import { fileAt, fileOfType } from '../testing/files.ts';
import { installPointerEvent } from '../testing/pointer-event.ts';
import { LazyViewer } from './LazyViewer.tsx';
import type { ViewerProps, ViewerSource } from './Viewer.tsx';

beforeAll(async () => {
  await loadNamespace('photos');
  installPointerEvent();
});

const files: GalleryFile[] = [
  fileAt(1, new Date(2025, 5, 1, 10), { fileSize: 3 * 1024 * 1024, width: 4000, height: 3000 }),
  fileOfType(2, new Date(2025, 5, 1, 9), 'clip.mp4', FileType.video),
  fileAt(3, new Date(2025, 5, 1, 8)),
];

function renderViewer(
  overrides: Partial<ViewerProps> = {},
  sourceOf: (file: GalleryFile) => ViewerSource = (file) => ({ status: 'ready', url: `blob:${file.id}` }),
) {
  const onClose = jest.fn();
  const onTrash = jest.fn<(file: GalleryFile) => void>();
  function Page() {
    const [index, setIndex] = useState(0);
    const [open, setOpen] = useState(true);
    const file = files[index] as GalleryFile;
    const close = () => {
      onClose();
      setOpen(false);
    };
    const props: ViewerProps = { open, files, index, onIndexChange: setIndex, onClose: close, source: sourceOf(file) };
    return <LazyViewer {...props} onTrash={onTrash} {...overrides} />;
  }
  renderInShell(<Page />);
  return { onClose, onTrash };
}

test('arrows and the side buttons move through the files; the ends have no button past them; Escape closes', async () => {
  const user = userEvent.setup();
  const { onClose } = renderViewer();
  const dialog = await screen.findByRole('dialog', { name: 'IMG_1.jpg' });
  expect(within(dialog).getByText('1 of 3')).toBeInTheDocument();
  expect(within(dialog).getByRole('img', { name: 'IMG_1.jpg' })).toHaveAttribute('src', 'blob:1');
  expect(within(dialog).queryByRole('button', { name: 'Previous' })).not.toBeInTheDocument();

  await user.keyboard('{ArrowRight}');
  expect(screen.getByRole('dialog', { name: 'clip.mp4' })).toBeInTheDocument();
  // A video is a video, with its controls.
  expect(dialog.querySelector('video')).toHaveAttribute('src', 'blob:2');
  await user.click(within(dialog).getByRole('button', { name: 'Next' }));
  expect(within(dialog).getByText('3 of 3')).toBeInTheDocument();
  expect(within(dialog).queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
  await user.keyboard('{ArrowRight}');
  expect(within(dialog).getByText('3 of 3')).toBeInTheDocument();
  await user.click(within(dialog).getByRole('button', { name: 'Previous' }));
  await user.keyboard('{ArrowLeft}');
  expect(within(dialog).getByText('1 of 3')).toBeInTheDocument();

  await user.keyboard('{Escape}');
  expect(onClose).toHaveBeenCalledTimes(1);
});

test('Delete and the trash button ask the page to trash the file shown', async () => {
  const user = userEvent.setup();
  const { onTrash } = renderViewer();
  const dialog = await screen.findByRole('dialog');
  await user.keyboard('{ArrowRight}{Delete}');
  expect(onTrash.mock.lastCall?.[0].id).toBe(2);
  await user.click(within(dialog).getByRole('button', { name: 'Move to trash' }));
  expect(onTrash).toHaveBeenCalledTimes(2);
});

test('without onTrash, nothing is offered and Delete does nothing', async () => {
  const user = userEvent.setup();
  renderViewer({ onTrash: undefined });
  const dialog = await screen.findByRole('dialog');
  await user.keyboard('{Delete}');
  expect(within(dialog).queryByRole('button', { name: 'Move to trash' })).not.toBeInTheDocument();
});

test('loading shows the preview and a spinner; a failure says so and offers to try again', async () => {
  const user = userEvent.setup();
  const onRetry = jest.fn();
  renderViewer({ previewUrl: 'blob:thumb' }, (file) =>
    file.id === 1 ? { status: 'loading' } : { status: 'error', onRetry },
  );
  const dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByRole('progressbar', { name: 'Loading the file…' })).toBeInTheDocument();
  expect(dialog.querySelector('img')).toHaveAttribute('src', 'blob:thumb');
  await user.keyboard('{ArrowRight}');
  expect(within(dialog).getByRole('alert')).toHaveTextContent('This file could not be opened.');
  await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
  expect(onRetry).toHaveBeenCalled();
});

test('the stage captures the pointer on a photo only, so a video’s controls and Try again get their clicks', async () => {
  // Chromium sends the click of a captured pointer to the element holding it: captured by the stage, a click on
  // the video's play button or on Try again never reaches them.
  const captured: string[] = [];
  Object.assign(HTMLElement.prototype, {
    setPointerCapture(this: HTMLElement) {
      captured.push(this.querySelector('video') ? 'video' : this.querySelector('[role=alert]') ? 'failure' : 'photo');
    },
  });
  try {
    renderViewer({}, (file) =>
      file.id === 3 ? { status: 'error', onRetry: jest.fn() } : { status: 'ready', url: 'blob:' },
    );
    const dialog = await screen.findByRole('dialog');
    const press = () => {
      const stage = screen.getByTestId('viewer-stage');
      fireEvent.pointerDown(stage, { pointerId: 1, pointerType: 'mouse', clientX: 10, clientY: 10 });
      fireEvent.pointerUp(stage, { pointerId: 1, pointerType: 'mouse', clientX: 10, clientY: 10 });
    };
    press();
    await userEvent.keyboard('{ArrowRight}');
    expect(dialog.querySelector('video')).not.toBeNull();
    press();
    await userEvent.keyboard('{ArrowRight}');
    expect(within(dialog).getByRole('alert')).toBeInTheDocument();
    press();
    expect(captured).toEqual(['photo']);
  } finally {
    delete (HTMLElement.prototype as { setPointerCapture?: unknown }).setPointerCapture;
  }
});

test('the info panel shows what is known of the file', async () => {
  const user = userEvent.setup();
  renderViewer({ details: { camera: 'Pixel 9', place: 'Lisbon' } });
  const dialog = await screen.findByRole('dialog');
  const info = within(dialog).getByRole('button', { name: 'Information' });
  expect(info).toHaveAttribute('aria-pressed', 'false');
  await user.click(info);
  const panel = within(dialog).getByRole('complementary', { name: 'Information' });
  const terms = within(panel)
    .getAllByRole('term')
    .map((term) => term.textContent);
  expect(terms).toEqual(['Name', 'Taken on', 'Size', 'Dimensions', 'Place', 'Camera']);
  expect(panel).toHaveTextContent('3 MB');
  expect(panel).toHaveTextContent('4000 × 3000');
  expect(panel).toHaveTextContent('Lisbon');
  expect(panel).toHaveTextContent('Pixel 9');
  await user.keyboard('i');
  expect(within(dialog).queryByRole('complementary')).not.toBeInTheDocument();
});

const scaleOf = () => {
  const match = /scale\(([\d.]+)\)/.exec(screen.getByTestId('viewer-media').style.transform);
  return Number(match?.[1]);
};

test('zoom: buttons and keys, a double click, the wheel, a pinch; each file starts fitted', async () => {
  const user = userEvent.setup();
  renderViewer();
  const dialog = await screen.findByRole('dialog');
  expect(scaleOf()).toBe(1);
  await user.click(within(dialog).getByRole('button', { name: 'Zoom in' }));
  expect(scaleOf()).toBeGreaterThan(1);
  await user.click(within(dialog).getByRole('button', { name: 'Fit to the screen' }));
  expect(scaleOf()).toBe(1);
  await user.keyboard('+');
  expect(scaleOf()).toBeGreaterThan(1);
  await user.keyboard('0');
  expect(scaleOf()).toBe(1);

  const stage = screen.getByTestId('viewer-stage');
  await user.dblClick(stage);
  expect(scaleOf()).toBe(2.5);
  await user.dblClick(stage);
  expect(scaleOf()).toBe(1);

  act(() => void stage.dispatchEvent(new WheelEvent('wheel', { deltaY: -300, bubbles: true, cancelable: true })));
  expect(scaleOf()).toBeCloseTo(Math.E, 5);

  // Two fingers spreading from 100 px to 200 px apart double the scale.
  fireEvent.pointerDown(stage, { pointerId: 1, pointerType: 'touch', clientX: 100, clientY: 100 });
  fireEvent.pointerDown(stage, { pointerId: 2, pointerType: 'touch', clientX: 200, clientY: 100 });
  fireEvent.pointerMove(stage, { pointerId: 2, pointerType: 'touch', clientX: 300, clientY: 100 });
  fireEvent.pointerUp(stage, { pointerId: 2, pointerType: 'touch' });
  fireEvent.pointerUp(stage, { pointerId: 1, pointerType: 'touch' });
  expect(scaleOf()).toBeCloseTo(2 * Math.E, 5);

  await user.keyboard('{ArrowRight}{ArrowRight}');
  expect(scaleOf()).toBe(1);
});

test('a swipe moves to the next or previous file, at the fit only', async () => {
  renderViewer();
  const dialog = await screen.findByRole('dialog');
  const swipe = (from: number, to: number) => {
    // The stage of the file shown (each file has its own).
    const stage = screen.getByTestId('viewer-stage');
    fireEvent.pointerDown(stage, { pointerId: 1, pointerType: 'touch', clientX: from, clientY: 200 });
    fireEvent.pointerMove(stage, { pointerId: 1, pointerType: 'touch', clientX: to, clientY: 205 });
    fireEvent.pointerUp(stage, { pointerId: 1, pointerType: 'touch', clientX: to, clientY: 205 });
  };
  swipe(300, 100);
  expect(within(dialog).getByText('2 of 3')).toBeInTheDocument();
  swipe(100, 300);
  expect(within(dialog).getByText('1 of 3')).toBeInTheDocument();
});
