// The root page: a public album link at the root (Ente's form) opens at /shared-albums with its query and
// fragment; any other visit goes where RootRedirect sends it.
import { render, waitFor } from '@testing-library/react';

import { fakeRouter } from '@ente/shared/testing/fake-router.ts';

import Page from '../pages/index.tsx';

const router = fakeRouter('/');
jest.mock('next/router', () => ({ useRouter: () => router }));

beforeEach(() => {
  router.replace.mockClear();
});

test('a public link at the root opens at /shared-albums, its query and fragment kept', async () => {
  window.history.replaceState(null, '', '/?t=ABCDEFGHJK#4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi');
  render(<Page />);
  await waitFor(() =>
    expect(router.replace).toHaveBeenCalledWith(
      '/shared-albums?t=ABCDEFGHJK#4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi',
    ),
  );
  expect(router.replace).toHaveBeenCalledTimes(1);
});

test('a signed-out visit to the root goes to /login', async () => {
  window.history.replaceState(null, '', '/');
  render(<Page />);
  await waitFor(() => expect(router.replace).toHaveBeenCalledWith('/login'));
});
