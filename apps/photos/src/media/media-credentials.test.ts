// The signed-in routes of media.ts: the API origin and the token are two IndexedDB reads on the page's thread, so
// they are read once for a screen of thumbnails, not once each, and read again after a reset (logout).
import { apiOrigin } from '@ente/shared/origins.ts';
import { ensureAuthToken } from '@ente/shared/storage/user.ts';

import { answeringWorker } from '../components/testing/media-worker.ts';
import { resetMedia, thumbnailURL } from './media.ts';

jest.mock('@ente/shared/origins.ts', () => ({ apiOrigin: jest.fn(() => Promise.resolve('https://api.test/')) }));
jest.mock('@ente/shared/storage/user.ts', () => ({ ensureAuthToken: jest.fn(() => Promise.resolve('token-1')) }));

test('the signed-in routes read the origin and token once for a screen of thumbnails, again after a reset', async () => {
  const asked = answeringWorker();
  resetMedia();
  const files = [1, 2, 3, 4].map((id) => ({ id, key: 'k', thumbnailHeader: `h${id}` }));
  await Promise.all(files.map((each) => thumbnailURL(each)));
  expect(asked).toEqual(files.map(({ id }) => `https://api.test/files/preview/${id}?token=token-1`));
  expect([jest.mocked(apiOrigin).mock.calls.length, jest.mocked(ensureAuthToken).mock.calls.length]).toEqual([1, 1]);
  // Logout (or a public album's routes) forgets them: the next user's token is read.
  resetMedia();
  jest.mocked(ensureAuthToken).mockResolvedValueOnce('token-2');
  await thumbnailURL({ id: 5, key: 'k', thumbnailHeader: 'h5' });
  expect(asked.at(-1)).toBe('https://api.test/files/preview/5?token=token-2');
  resetMedia();
});
