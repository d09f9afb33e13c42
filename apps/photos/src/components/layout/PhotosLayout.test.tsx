import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { fakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { PhotosLayout } from './PhotosLayout.tsx';
import type { PickedFile } from './picked-files.ts';

const router = fakeRouter('/gallery');
jest.mock('next/router', () => ({ useRouter: () => router }));

beforeAll(() => loadNamespace('photos'));
beforeEach(() => {
  router.push.mockClear();
});

test('the navigation links every section, marks the current one, and is followed with the router', async () => {
  renderInShell(<PhotosLayout section="albums">content</PhotosLayout>);
  const nav = await screen.findByRole('navigation', { name: 'Sections' });
  const links = within(nav).getAllByRole('link');
  expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
    ['Photos', '/gallery'],
    ['Albums', '/gallery?view=albums'],
    ['Shared with me', '/gallery?view=shared'],
    ['Trash', '/gallery?view=trash'],
    ['Deduplicate', '/deduplicate'],
  ]);
  expect(within(nav).getByRole('link', { current: 'page' })).toHaveTextContent('Albums');
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Albums');
  expect(screen.getByRole('main')).toHaveTextContent('content');

  await userEvent.click(within(nav).getByRole('link', { name: 'Trash' }));
  expect(router.push).toHaveBeenCalledWith('/gallery?view=trash');
});

test('by keyboard: Tab reaches the current section, the arrows, Home and End move, Enter follows', async () => {
  const user = userEvent.setup();
  renderInShell(<PhotosLayout section="photos" title="Everything" />);
  const nav = await screen.findByRole('navigation', { name: 'Sections' });
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Everything');
  within(nav).getByRole('link', { name: 'Photos' }).focus();
  await user.keyboard('{ArrowRight}');
  expect(within(nav).getByRole('link', { name: 'Albums' })).toHaveFocus();
  await user.keyboard('{End}');
  expect(within(nav).getByRole('link', { name: 'Deduplicate' })).toHaveFocus();
  await user.keyboard('{ArrowRight}');
  expect(within(nav).getByRole('link', { name: 'Photos' })).toHaveFocus();
  await user.keyboard('{ArrowLeft}{ArrowLeft}');
  expect(within(nav).getByRole('link', { name: 'Trash' })).toHaveFocus();
  await user.keyboard('{Enter}');
  expect(router.push).toHaveBeenCalledWith('/gallery?view=trash');
  // Only the current link is a Tab stop.
  expect(
    within(nav)
      .getAllByRole('link')
      .map((link) => link.tabIndex),
  ).toEqual([0, -1, -1, -1, -1]);
});

test('Upload offers files and a folder; what is picked comes to onFiles with relative paths', async () => {
  const user = userEvent.setup();
  const onFiles = jest.fn<(files: PickedFile[]) => void>();
  const clicked: string[] = [];
  const click = jest.spyOn(HTMLInputElement.prototype, 'click').mockImplementation(function (this: HTMLInputElement) {
    clicked.push(this.hasAttribute('webkitdirectory') ? 'folder' : 'files');
  });
  renderInShell(<PhotosLayout section="photos" onFiles={onFiles} />);

  await user.click(await screen.findByRole('button', { name: 'Upload' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Files…' }));
  await user.click(screen.getByRole('button', { name: 'Upload' }));
  await user.click(await screen.findByRole('menuitem', { name: 'A folder…' }));
  expect(clicked).toEqual(['files', 'folder']);
  click.mockRestore();

  const inFolder = new File(['x'], 'a.jpg');
  Object.defineProperty(inFolder, 'webkitRelativePath', { value: 'Holiday/a.jpg' });
  fireEvent.change(screen.getByTestId('upload-folder-input'), { target: { files: [inFolder] } });
  const loose = new File(['y'], 'b.png');
  fireEvent.change(screen.getByTestId('upload-files-input'), { target: { files: [loose] } });
  expect(onFiles.mock.calls.map(([files]) => files.map((f) => [f.relativePath, f.file]))).toEqual([
    [['Holiday/a.jpg', inFolder]],
    [['b.png', loose]],
  ]);
});

function dragEvent(type: string, dataTransfer: Partial<DataTransfer>): Event {
  const event = new Event(type, { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'dataTransfer', { value: dataTransfer });
  return event;
}

test('files dropped anywhere on the page come to onFiles; the hint shows while files are dragged over it', async () => {
  const onFiles = jest.fn<(files: PickedFile[]) => void>();
  renderInShell(<PhotosLayout section="photos" onFiles={onFiles} />);
  await screen.findByRole('button', { name: 'Upload' });
  const file = new File(['x'], 'c.jpg');
  const entry = {
    isFile: true,
    isDirectory: false,
    fullPath: '/c.jpg',
    file: (resolve: (f: File) => void) => resolve(file),
  };
  const transfer = {
    types: ['Files'],
    items: [{ kind: 'file', webkitGetAsEntry: () => entry, getAsFile: () => file }],
    files: [file],
  } as unknown as DataTransfer;
  const hint = 'Drop photos, videos or folders to upload them';

  jest.useFakeTimers();
  try {
    const over = dragEvent('dragover', transfer);
    act(() => void document.body.dispatchEvent(over));
    // The drop is allowed (else the browser would open the file).
    expect(over.defaultPrevented).toBe(true);
    expect(screen.getByText(hint)).toBeInTheDocument();
    // The drag left the window: no dragover comes any more.
    act(() => jest.advanceTimersByTime(300));
    expect(screen.queryByText(hint)).not.toBeInTheDocument();
    act(() => void document.body.dispatchEvent(dragEvent('dragover', transfer)));
    act(() => void document.body.dispatchEvent(dragEvent('drop', transfer)));
    expect(screen.queryByText(hint)).not.toBeInTheDocument();
  } finally {
    jest.useRealTimers();
  }
  await waitFor(() => expect(onFiles).toHaveBeenCalledWith([{ file, relativePath: 'c.jpg' }]));
});

test('a drop with unreadable entries uploads the rest and says how many were left out', async () => {
  const onFiles = jest.fn<(files: PickedFile[]) => void>();
  renderInShell(<PhotosLayout section="photos" onFiles={onFiles} />);
  await screen.findByRole('button', { name: 'Upload' });
  const file = new File(['x'], 'c.jpg');
  const readable = { isFile: true, isDirectory: false, fullPath: '/c.jpg', file: (ok: (f: File) => void) => ok(file) };
  const locked = {
    isFile: true,
    isDirectory: false,
    fullPath: '/locked.jpg',
    file: (_ok: unknown, fail: (e: Error) => void) => fail(new Error('NotReadableError')),
  };
  const transfer = {
    types: ['Files'],
    items: [readable, locked].map((entry) => ({ kind: 'file', webkitGetAsEntry: () => entry, getAsFile: () => null })),
    files: [],
  } as unknown as DataTransfer;
  act(() => void document.body.dispatchEvent(dragEvent('drop', transfer)));
  await waitFor(() => expect(onFiles).toHaveBeenCalledWith([{ file, relativePath: 'c.jpg' }]));
  expect(await screen.findByText('Could not be read, left out of the upload: 1')).toBeInTheDocument();
  fireEvent.click(screen.getByRole('button', { name: 'Close' }));
  expect(screen.queryByText('Could not be read, left out of the upload: 1')).not.toBeInTheDocument();
});

test('without onFiles there is no Upload button, and a file dropped is refused, not opened by the browser', async () => {
  renderInShell(<PhotosLayout section="trash" />);
  await screen.findByRole('navigation', { name: 'Sections' });
  expect(screen.queryByRole('button', { name: 'Upload' })).not.toBeInTheDocument();
  // The browser's default would open the file in this tab, leaving the page and its running uploads.
  const transfer = { types: ['Files'], dropEffect: 'copy' } as unknown as DataTransfer;
  const over = dragEvent('dragover', transfer);
  act(() => void document.body.dispatchEvent(over));
  expect(over.defaultPrevented).toBe(true);
  expect(transfer.dropEffect).toBe('none');
  expect(screen.queryByText('Drop photos, videos or folders to upload them')).not.toBeInTheDocument();
  const drop = dragEvent('drop', transfer);
  act(() => void document.body.dispatchEvent(drop));
  expect(drop.defaultPrevented).toBe(true);
  // A drag of text or a link is still the browser's.
  const text = dragEvent('dragover', { types: ['text/plain'] });
  document.body.dispatchEvent(text);
  expect(text.defaultPrevented).toBe(false);
  // The app menu of the shell (theme, language, logout) is there.
  expect(screen.getByRole('button', { name: 'Menu' })).toBeInTheDocument();
});

test('a page that refuses files with a reason (an album shared to view only) says it while dragging and after a drop', async () => {
  const user = userEvent.setup();
  const reason = '“Trip” is shared with you to view only, so it does not take photos and nothing is uploaded.';
  renderInShell(<PhotosLayout section="shared" title="Trip" dropRefusal={reason} />);
  await screen.findByRole('navigation', { name: 'Sections' });
  expect(screen.queryByRole('button', { name: 'Upload' })).not.toBeInTheDocument();
  const transfer = { types: ['Files'], dropEffect: 'copy' } as unknown as DataTransfer;
  jest.useFakeTimers();
  try {
    const over = dragEvent('dragover', transfer);
    act(() => void document.body.dispatchEvent(over));
    // Refused (the browser shows no copy, nor opens the file), and the reason is shown instead of the upload hint.
    expect([over.defaultPrevented, transfer.dropEffect]).toEqual([true, 'none']);
    expect(screen.getByText(reason)).toBeInTheDocument();
    expect(screen.queryByText('Drop photos, videos or folders to upload them')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // The drag left (a browser sends no drop where the page refuses it): an alert keeps the reason.
    act(() => jest.advanceTimersByTime(300));
    expect(screen.getByRole('alert')).toHaveTextContent(reason);
    // A drop, where one comes, is refused too (not opened by the browser) and says the same.
    const drop = dragEvent('drop', transfer);
    act(() => void document.body.dispatchEvent(drop));
    expect(drop.defaultPrevented).toBe(true);
  } finally {
    jest.useRealTimers();
  }
  expect(screen.getAllByRole('alert')).toHaveLength(1);
  expect(screen.getByRole('alert')).toHaveTextContent(reason);
  // Closed by keyboard.
  const close = within(screen.getByRole('alert')).getByRole('button', { name: 'Close' });
  act(() => close.focus());
  await user.keyboard('{Enter}');
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

test('a page that takes files ignores a refusal given with them', async () => {
  const onFiles = jest.fn<(files: PickedFile[]) => void>();
  renderInShell(<PhotosLayout section="photos" onFiles={onFiles} dropRefusal="never shown" />);
  await screen.findByRole('button', { name: 'Upload' });
  const transfer = { types: ['Files'], dropEffect: 'none' } as unknown as DataTransfer;
  act(() => void document.body.dispatchEvent(dragEvent('dragover', transfer)));
  expect(transfer.dropEffect).toBe('copy');
  expect(screen.queryByText('never shown')).not.toBeInTheDocument();
  expect(screen.getByText('Drop photos, videos or folders to upload them')).toBeInTheDocument();
});
