// The codes page's writes to the vault: each on the vault's latest version of its code, a failure shown
// in a dialog (a conflict shows its own), and the manual order's position writes queued one after the
// other while the new positions already show.
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';
import { log } from '@ente/shared/log.ts';

import { codeData, renameTagIn } from '../../services/code-edits.ts';
import type { PositionChange } from '../../services/manual-order.ts';
import type { Code, CodeData } from '../../services/types.ts';
import { visibleText } from '../../services/visible-text.ts';
import { VaultConflictError, VaultError, type Vault } from '../../vault/vault.ts';

export interface VaultWrites {
  /** The vault's latest version of a code (a write needs its current updatedAt). */
  latest: (code: Code) => Code;
  /** A change of one code; `done` is toasted once it is saved. */
  write: (code: Code, change: (data: CodeData) => CodeData, done?: string) => Promise<void>;
  /** The editor's save: over the version it opened with, or a new code. */
  save: (data: CodeData, original?: Code) => Promise<void>;
  /** A tag renamed on every code of `codes` that has it, one write after the other. */
  renameTag: (codes: readonly Code[], from: string, to: string) => Promise<void>;
  confirmDeleteForever: (code: Code) => void;
  /** Positions of a manual move already shown while their writes are under way (code id → position). */
  pendingPositions: ReadonlyMap<string, number>;
  writePositions: (changes: PositionChange[]) => void;
}

export function useVaultWrites(vault: Vault, toast: (text: string) => void): VaultWrites {
  const { t } = useTranslation('codes');
  const { t: tc } = useTranslation('common');
  const { showDialog } = useDialog();
  const [pendingPositions, setPendingPositions] = useState<ReadonlyMap<string, number>>(new Map());

  const latest = useCallback(
    (code: Code): Code => {
      for (const item of vault.snapshot().items) if (item.kind === 'code' && item.code.id === code.id) return item.code;
      return code;
    },
    [vault],
  );

  const showError = useCallback(
    (e: unknown) => {
      // A conflict shows its own dialog (the snapshot holds it).
      if (e instanceof VaultConflictError) return;
      log.error('A vault write failed', e);
      const errorKey = e instanceof VaultError ? e.errorKey : 'vault.unknown';
      showDialog({ title: t('list.failed'), content: t(errorKey), close: { text: tc('ok') } });
    },
    [showDialog, t, tc],
  );

  const write = useCallback(
    async (code: Code, change: (data: CodeData) => CodeData, done?: string) => {
      try {
        const current = latest(code);
        await vault.update(current, change(codeData(current)));
        if (done) toast(done);
      } catch (e) {
        showError(e);
      }
    },
    [latest, vault, toast, showError],
  );

  const save = useCallback(
    async (data: CodeData, original?: Code) => {
      // Over the version the dialog opened with: a change made elsewhere meanwhile is a conflict the
      // person resolves, never silently overwritten.
      try {
        if (original) await vault.update(original, data);
        else await vault.add(data);
      } catch (e) {
        // The conflict dialog takes over from the editor: both versions are shown there.
        if (e instanceof VaultConflictError) return;
        throw e;
      }
      toast(original ? t('list.saved') : t('list.added'));
    },
    [vault, toast, t],
  );

  const renameTag = useCallback(
    async (codes: readonly Code[], from: string, to: string) => {
      for (const { code, data } of renameTagIn(codes, from, to)) await vault.update(latest(code), data);
      toast(t('list.saved'));
    },
    [vault, latest, toast, t],
  );

  const confirmDeleteForever = useCallback(
    (code: Code) => {
      const name = visibleText(code.issuer || code.account);
      showDialog({
        title: t('list.deleteForeverTitle'),
        content: t('list.deleteForeverBody', { name }),
        proceed: {
          text: t('list.deleteForever'),
          variant: 'critical',
          action: async () => {
            try {
              await vault.deleteForever(code.id, latest(code).updatedAt);
              toast(t('list.deleted'));
            } catch (e) {
              showError(e);
            }
          },
        },
        close: { text: tc('cancel') },
      });
    },
    [showDialog, t, tc, vault, latest, toast, showError],
  );

  // The writes run one after the other, each on the vault's latest version of its code; the shown
  // positions fall back to the vault's once the last one has ended.
  const writes = useRef<Promise<void>>(Promise.resolve());
  const pendingWrites = useRef(0);
  const writePositions = useCallback(
    (changes: PositionChange[]) => {
      setPendingPositions((current) => {
        const merged = new Map(current);
        for (const { code, position } of changes) merged.set(code.id, position);
        return merged;
      });
      pendingWrites.current += 1;
      writes.current = writes.current
        .then(async () => {
          for (const { code, position } of changes) {
            const current = latest(code);
            if (current.display.position === position) continue;
            await vault.update(current, { ...codeData(current), display: { ...current.display, position } });
          }
        })
        .catch(showError)
        .finally(() => {
          pendingWrites.current -= 1;
          if (pendingWrites.current === 0) setPendingPositions(new Map());
        });
    },
    [latest, vault, showError],
  );

  return { latest, write, save, renameTag, confirmDeleteForever, pendingPositions, writePositions };
}
