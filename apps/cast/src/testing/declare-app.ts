// Run before every test file (jest.config.cjs): declares the app's own translations to the shell, as createApp
// does when the app's _app loads.
import { declareAppLocales } from '@ente/shared/i18n/i18n.ts';

import { castLocales } from '../locales.ts';

declareAppLocales(castLocales);
