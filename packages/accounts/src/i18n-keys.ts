// The translation keys of the `accounts` namespace, taken from the en-US file, so that a page naming a
// key that does not exist fails the type check.
import type accountsMessages from '@ente/shared/i18n/locales/en-US/accounts.json';

export type AccountsKey = keyof typeof accountsMessages;
