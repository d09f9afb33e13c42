// The generic failure dialog (spec §8): what the user sees when something failed and there is
// nothing more specific to say.
import type { TFunction } from 'i18next';
import type { DialogAttributes } from './types.ts';

export function genericErrorDialogAttributes(t: TFunction): DialogAttributes {
  return {
    title: t('error', { ns: 'common' }),
    content: t('UNKNOWN_ERROR', { ns: 'common' }),
    close: { text: t('ok', { ns: 'common' }), variant: 'critical' },
  };
}
