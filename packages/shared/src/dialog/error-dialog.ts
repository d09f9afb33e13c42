// The generic failure dialog (docs/product.md#dialogs): what the user sees when something failed and
// there is nothing more specific to say than the catalogue's message for it.
import type { TFunction } from 'i18next';

import type { ErrorId } from '../errors.ts';
import type { DialogAttributes } from './types.ts';

/** Title `error`, the message of `id` (errors namespace), and a critical OK button that runs `onClose`. */
export function genericErrorDialogAttributes(t: TFunction, id: ErrorId, onClose?: () => void): DialogAttributes {
  return {
    title: t('error', { ns: 'common' }),
    content: t(id, { ns: 'errors' }),
    close: { text: t('ok', { ns: 'common' }), variant: 'critical', action: onClose },
    // Only the button closes a dialog that has something to do afterwards, so that it always runs.
    nonClosable: onClose !== undefined,
  };
}
