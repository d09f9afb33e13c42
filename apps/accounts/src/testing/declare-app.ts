// Run before every test file (jest.config.cjs): declares the app's own translations to the shell, as
// createApp does when the app's _app loads, so that tests of a page see the app as it runs.
import { declareAppLocales } from '@ente/shared/i18n/i18n.ts';

import { accountsLocales } from '../locales.ts';

declareAppLocales(accountsLocales);
