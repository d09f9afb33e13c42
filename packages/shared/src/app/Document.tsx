// The HTML document of every app (next/document; each app's _document.tsx re-exports it). The strict
// Content-Security-Policy of the static apps forbids inline scripts and inline event handlers, so
// there are none here: the theme colour meta starts with the default (dark) theme and
// AppThemeProvider moves it to the user's choice; the `lang` attribute is set to the chosen locale at
// run time (see i18n.ts). Emotion's <style> tags are allowed (style-src permits inline styles).
import { Head, Html, Main, NextScript } from 'next/document';

import { i18n } from '../i18n/i18n.ts';
import { appTheme, defaultThemeMode } from '../theme.ts';

export default function Document() {
  return (
    <Html lang="en">
      <Head>
        <meta name="theme-color" content={appTheme(defaultThemeMode).palette.background.default} />
        <meta name="description" content={i18n.t('description', { ns: 'common' })} />
      </Head>
      <body>
        <Main />
        <NextScript />
      </body>
    </Html>
  );
}
