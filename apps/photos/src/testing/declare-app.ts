// Run before every test file (jest.config.cjs): declares the app's own storage and translations to the
// shell, as createApp does when the app's _app loads, so that tests of a page or a component see the app
// as it runs.
import { declareAppLocales } from '@ente/shared/i18n/i18n.ts';
import { declareAppStorage } from '@ente/shared/storage/registry.ts';

import { photosLocales } from '../locales.ts';
import { photosStorage } from '../storage.ts';

declareAppStorage(photosStorage);
declareAppLocales(photosLocales);
