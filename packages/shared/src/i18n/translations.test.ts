// The shell's translations: common, errors and accounts in the nine locales (the apps test their own).
import path from 'node:path';

import { describeTranslations } from '../testing/translations.ts';
import { namespaces } from './i18n.ts';

describeTranslations(path.join(__dirname, 'locales'), namespaces);
