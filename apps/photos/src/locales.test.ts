import path from 'node:path';

import { describeTranslations } from '@ente/shared/testing/translations.ts';

import { photosLocales } from './locales.ts';

describeTranslations(path.join(__dirname, 'locales'), Object.keys(photosLocales));
