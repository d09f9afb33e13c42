import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

import Document from './Document.tsx';

// Next's document parts need a Next render; plain elements (and markers for Next's own) stand in.
jest.mock('next/document', () => ({
  Html: ({ children, ...props }: { children: ReactNode }) => <html {...props}>{children}</html>,
  Head: ({ children }: { children: ReactNode }) => <head>{children}</head>,
  Main: () => <div id="__next" />,
  NextScript: () => <script src="/_next/static/chunks/main.js" />,
}));

const html = renderToStaticMarkup(<Document />);

test('starts in English (the locale is set at run time) with the theme colour and a description', () => {
  expect(html).toContain('<html lang="en">');
  expect(html).toContain('<meta name="theme-color" content="#141414"/>');
  expect(html).toMatch(/<meta name="description" content="Ente: [^"]+"\/>/);
});

test('has no inline script and no inline event handler (the CSP forbids both)', () => {
  const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
  expect(scripts.every(([, attributes, body]) => /\ssrc=/.test(attributes ?? '') && body === '')).toBe(true);
  expect(html).not.toMatch(/\son[a-z]+=/i);
});
