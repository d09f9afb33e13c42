import path from 'node:path';

import { describeTranslations } from '@ente/shared/testing/translations.ts';

import { castLocales } from './locales.ts';

describeTranslations(path.join(__dirname, 'locales'), Object.keys(castLocales));
