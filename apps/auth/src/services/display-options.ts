// How the codes are listed on this device (docs/product.md#the-codes): compact cards, codes hidden
// until revealed, and the sort order. Kept in local storage under `authDisplay` (declared in the app's
// storage, ../storage.ts, kept on logout: it describes this browser, not the account).
import { log } from '@ente/shared/log.ts';
import { readAppLocal, writeAppLocal } from '@ente/shared/storage/local-storage.ts';

import { authDisplayKey, type AuthDisplay } from '../storage.ts';

export type SortMode = NonNullable<AuthDisplay['sort']>;

export const sortModes: readonly SortMode[] = ['issuer', 'account', 'recent', 'manual'];

/** The display options with every default filled in. */
export interface DisplayOptions {
  compact: boolean;
  hideCodes: boolean;
  sort: SortMode;
}

export const defaultDisplayOptions: DisplayOptions = { compact: false, hideCodes: false, sort: 'issuer' };

/** The saved options of this device, defaults where nothing (or nothing readable) is saved. */
export function savedDisplayOptions(): DisplayOptions {
  const saved = readAppLocal(authDisplayKey);
  return {
    compact: saved?.compact ?? defaultDisplayOptions.compact,
    hideCodes: saved?.hideCodes ?? defaultDisplayOptions.hideCodes,
    sort: saved?.sort ?? defaultDisplayOptions.sort,
  };
}

/** Saves the options; a failure (storage full or blocked) is logged, as the choice still applies to this tab. */
export function saveDisplayOptions(options: DisplayOptions): void {
  try {
    writeAppLocal(authDisplayKey, { compact: options.compact, hideCodes: options.hideCodes, sort: options.sort });
  } catch (e) {
    log.warn('Could not save the display options', e);
  }
}
