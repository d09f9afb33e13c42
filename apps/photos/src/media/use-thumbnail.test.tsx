// useThumbnail (use-thumbnail.ts) with media.ts mocked: the URL once it arrives, at once when kept, `failed`
// on an error, and an answer for a file the cell no longer shows is ignored; a cell that unmounts or shows another
// file lets go of its request (its signal aborts); the answers that arrive between two frames show at the next frame,
// in one render. A thumbnail held while the window scrolls fast keeps the placeholder and is asked for again when
// fetches resume, unless its cell is gone by then.
import { act, render, renderHook, waitFor } from '@testing-library/react';

import { MediaError } from './errors.ts';
import { keptThumbnailURL, thumbnailURL } from './media.ts';
import { whenFetchesResume } from './scroll-pace.ts';
import { useThumbnail } from './use-thumbnail.ts';

jest.mock('./media.ts', () => ({ keptThumbnailURL: jest.fn(), thumbnailURL: jest.fn() }));
jest.mock('./scroll-pace.ts', () => ({ whenFetchesResume: jest.fn() }));
const kept = jest.mocked(keptThumbnailURL);
const load = jest.mocked(thumbnailURL);
const resume = jest.mocked(whenFetchesResume);

const file = (id: number) => ({ id, key: 'k', thumbnailHeader: `h${id}` });

/** The listeners waiting for fetches to resume, and whether each was unsubscribed. */
let waiting: { listener: () => void; stopped: boolean }[] = [];

beforeEach(() => {
  kept.mockReset().mockReturnValue(undefined);
  load.mockReset();
  waiting = [];
  resume.mockReset().mockImplementation((listener) => {
    const entry = { listener, stopped: false };
    waiting.push(entry);
    return () => void (entry.stopped = true);
  });
});

test('nothing, then the URL once decrypted', async () => {
  load.mockResolvedValue('blob:1');
  const { result } = renderHook(() => useThumbnail(file(1)));
  expect(result.current).toEqual({});
  await waitFor(() => expect(result.current).toEqual({ url: 'blob:1' }));
  expect(load).toHaveBeenCalledWith(file(1), expect.any(AbortSignal));
});

test('unmounting, or another file in the same cell, aborts the request no longer wanted', () => {
  load.mockImplementation(() => new Promise(() => undefined));
  const { rerender, unmount } = renderHook(({ id }) => useThumbnail(file(id)), { initialProps: { id: 1 } });
  const first = load.mock.calls[0]?.[1];
  expect(first?.aborted).toBe(false);
  rerender({ id: 2 });
  expect(first?.aborted).toBe(true);
  const second = load.mock.calls[1]?.[1];
  expect(load.mock.calls[1]?.[0]).toEqual(file(2));
  expect(second?.aborted).toBe(false);
  unmount();
  expect(second?.aborted).toBe(true);
});

test('a kept URL at once, without loading', () => {
  kept.mockReturnValue('blob:kept');
  const { result } = renderHook(() => useThumbnail(file(1)));
  expect(result.current).toEqual({ url: 'blob:kept' });
  expect(load).not.toHaveBeenCalled();
});

test('failed when it could not be fetched or opened', async () => {
  load.mockRejectedValue(new Error('MediaError'));
  const { result } = renderHook(() => useThumbnail(file(1)));
  await waitFor(() => expect(result.current).toEqual({ failed: true }));
});

test('held while the window scrolls fast: the placeholder, then asked again once fetches resume', async () => {
  load.mockRejectedValueOnce(new MediaError('held')).mockResolvedValueOnce('blob:1');
  const { result } = renderHook(() => useThumbnail(file(1)));
  await waitFor(() => expect(waiting).toHaveLength(1));
  expect(result.current).toEqual({});
  expect(load).toHaveBeenCalledTimes(1);
  act(() => waiting[0]?.listener());
  await waitFor(() => expect(result.current).toEqual({ url: 'blob:1' }));
  expect(load).toHaveBeenCalledTimes(2);
});

test('a held cell that unmounts stops waiting for fetches to resume', async () => {
  load.mockRejectedValue(new MediaError('held'));
  const { unmount } = renderHook(() => useThumbnail(file(1)));
  await waitFor(() => expect(waiting).toHaveLength(1));
  unmount();
  expect(waiting[0]?.stopped).toBe(true);
});

test("another file's late answer is not shown", async () => {
  let resolveFirst: (url: string) => void = () => undefined;
  load.mockImplementationOnce(() => new Promise((resolve) => (resolveFirst = resolve)));
  load.mockResolvedValueOnce('blob:2');
  const { result, rerender } = renderHook(({ id }) => useThumbnail(file(id)), { initialProps: { id: 1 } });
  rerender({ id: 2 });
  await waitFor(() => expect(result.current).toEqual({ url: 'blob:2' }));
  await act(() => {
    resolveFirst('blob:1');
    return Promise.resolve();
  });
  expect(result.current).toEqual({ url: 'blob:2' });
});

test('answers that arrive between two frames show together at the next frame, in one render', async () => {
  // The answers of the tests before (to cells gone since) shown first, at a frame of the real clock.
  await act(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  jest.useFakeTimers();
  const frames: FrameRequestCallback[] = [];
  const frame = jest.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback));
  try {
    const answers: ((url: string) => void)[] = [];
    load.mockImplementation(() => new Promise((resolve) => answers.push(resolve)));
    let renders = 0;
    const shown: (string | undefined)[] = [];
    function Cells() {
      renders++;
      const first = useThumbnail(file(1));
      const second = useThumbnail(file(2));
      shown.splice(0, 2, first.url, second.url);
      return null;
    }
    render(<Cells />);
    const before = renders;
    // Each answer in a task of its own, with time for a render after each (React's scheduler runs on timers here).
    for (const [index, answer] of answers.entries()) {
      answer(`blob:${index + 1}`);
      await act(() => jest.advanceTimersByTimeAsync(1));
    }
    expect(shown).toEqual([undefined, undefined]);
    expect(renders).toBe(before);
    await act(async () => {
      frames.splice(0).forEach((frame) => frame(0));
      await jest.advanceTimersByTimeAsync(1);
    });
    expect(shown).toEqual(['blob:1', 'blob:2']);
    expect(renders).toBe(before + 1);
  } finally {
    frame.mockRestore();
    jest.useRealTimers();
  }
});
