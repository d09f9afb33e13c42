// Run before every test file (jest.config.cjs): declares the app's own storage and translations to the
// shell, as createApp does when the app's _app loads, so that tests of a page or a dialog see the app
// as it runs.
import { declareAppLocales } from '@ente/shared/i18n/i18n.ts';
import { declareAppStorage } from '@ente/shared/storage/registry.ts';

import { authLocales } from '../locales.ts';
import { authStorage } from '../storage.ts';

declareAppStorage(authStorage);
declareAppLocales(authLocales);
