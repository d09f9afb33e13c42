// The en-US texts of the `accounts` namespace, put in place when this module loads. Every module that shows
// them imports it (strings.test.ts checks), so they come with the sign-in pages and the settings, and a page
// with neither (the public album) does not carry them; the other locales are fetched like the shell's.
import { addBundledNamespace } from '@ente/shared/i18n/i18n.ts';
import enAccounts from '@ente/shared/i18n/locales/en-US/accounts.json';

addBundledNamespace('accounts', enAccounts);
