import { screen } from '@testing-library/react';

import { fakeRouter, type FakeRouter } from '../testing/fake-router.ts';
import { renderInShell } from '../testing/render-in-shell.tsx';
import { RootRedirect } from './RootRedirect.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));

const signedInUser = { id: 7, email: 'ada@example.org', token: 'token-7' };

beforeEach(() => {
  mockRouter = fakeRouter('/auth');
});

afterEach(() => localStorage.clear());

describe('RootRedirect', () => {
  test('goes home when signed in', () => {
    localStorage.setItem('user', JSON.stringify(signedInUser));
    renderInShell(<RootRedirect home="/auth" />);
    expect(mockRouter.replace).toHaveBeenCalledWith('/auth');
    expect(screen.getByTestId('loading-overlay')).toBeInTheDocument();
  });

  test('goes to /login when signed out', () => {
    renderInShell(<RootRedirect home="/auth" />);
    expect(mockRouter.replace).toHaveBeenCalledWith('/login');
  });

  test('a user record without a token does not count as signed in', () => {
    localStorage.setItem('user', JSON.stringify({ id: 7, email: 'ada@example.org' }));
    renderInShell(<RootRedirect home="/gallery" />);
    expect(mockRouter.replace).toHaveBeenCalledWith('/login');
  });
});
