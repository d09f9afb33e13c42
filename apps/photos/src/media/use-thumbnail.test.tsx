// useThumbnail (use-thumbnail.ts) with media.ts mocked: the URL once it arrives, at once when kept, `failed`
// on an error, and an answer for a file the cell no longer shows is ignored; a cell that unmounts or shows another
// file lets go of its request (its signal aborts).
import { act, renderHook, waitFor } from '@testing-library/react';

import { keptThumbnailURL, thumbnailURL } from './media.ts';
import { useThumbnail } from './use-thumbnail.ts';

jest.mock('./media.ts', () => ({ keptThumbnailURL: jest.fn(), thumbnailURL: jest.fn() }));
const kept = jest.mocked(keptThumbnailURL);
const load = jest.mocked(thumbnailURL);

const file = (id: number) => ({ id, key: 'k', thumbnailHeader: `h${id}` });

beforeEach(() => {
  kept.mockReset().mockReturnValue(undefined);
  load.mockReset();
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
