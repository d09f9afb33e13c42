import { screen } from '@testing-library/react';

import { fakeRouter, type FakeRouter } from '../testing/fake-router.ts';
import { renderInShell } from '../testing/render-in-shell.tsx';
import { LandingPlaceholder } from './LandingPlaceholder.tsx';
import { RootRedirect } from './RootRedirect.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));

const signedInUser = { id: 7, email: 'ada@example.org', token: 'token-7' };

beforeEach(() => {
  mockRouter = fakeRouter('/auth');
});

afterEach(() => localStorage.clear());

describe('LandingPlaceholder', () => {
  test('signed in: the header, one h1 in a main landmark, and the text', () => {
    localStorage.setItem('user', JSON.stringify(signedInUser));
    renderInShell(<LandingPlaceholder headingKey="title_photos" bodyKey="gallery_coming_soon" requireLogin={true} />);
    expect(screen.getByRole('banner')).toContainElement(screen.getByRole('img', { name: 'Ente' }));
    const main = screen.getByRole('main');
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(main).toContainElement(screen.getByRole('heading', { level: 1, name: 'Ente Photos' }));
    expect(main).toHaveTextContent('Your photos will appear here.');
    expect(main).toHaveTextContent('Signed in as ada@example.org');
    expect(mockRouter.replace).not.toHaveBeenCalled();
  });

  test('signed out, when login is required: the overlay and a redirect to /login', () => {
    renderInShell(<LandingPlaceholder headingKey="title_photos" bodyKey="gallery_coming_soon" requireLogin={true} />);
    expect(mockRouter.replace).toHaveBeenCalledWith('/login');
    expect(mockRouter.replace).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('loading-overlay')).toBeInTheDocument();
    expect(screen.queryByRole('main')).not.toBeInTheDocument();
  });

  test('signed out, when login is not required: the page itself', () => {
    renderInShell(
      <LandingPlaceholder headingKey="title_cast" bodyKey="cast_pairing_coming_soon" requireLogin={false} />,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Ente Cast' })).toBeInTheDocument();
    expect(screen.queryByText(/^Signed in as/)).not.toBeInTheDocument();
    expect(mockRouter.replace).not.toHaveBeenCalled();
  });

  test('when login is not required, still says who is signed in', () => {
    localStorage.setItem('user', JSON.stringify(signedInUser));
    renderInShell(
      <LandingPlaceholder headingKey="title_cast" bodyKey="cast_pairing_coming_soon" requireLogin={false} />,
    );
    expect(screen.getByRole('main')).toHaveTextContent('Signed in as ada@example.org');
  });
});

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
