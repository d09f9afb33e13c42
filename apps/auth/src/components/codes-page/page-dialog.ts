// The codes page's own dialogs (editor, QR, share, tags, import, export) as one state: at most one is
// open, opening one replaces the other, and a close names the dialog it closes, so that a late close
// (a dialog's exit, an async action ending) never shuts a dialog opened since. The conflict dialog is
// not here: the vault's snapshot holds the conflicts. See docs/product.md#dialogs.
import type { Code, CodeData } from '../../services/types.ts';

/** What the editor opens on: a new code (maybe with fields or an image to read) or a code to edit. */
export type EditorTarget = { kind: 'add'; initial?: Partial<CodeData>; image?: Blob } | { kind: 'edit'; code: Code };

export type PageDialog =
  | { kind: 'editor'; target: EditorTarget }
  | { kind: 'showQR'; code: Code }
  | { kind: 'share'; code: Code }
  | { kind: 'tags' }
  | { kind: 'import' }
  | { kind: 'export' };

export type PageDialogKind = PageDialog['kind'];

export type PageDialogAction = { type: 'open'; dialog: PageDialog } | { type: 'close'; kind: PageDialogKind };

export function pageDialogReducer(state: PageDialog | undefined, action: PageDialogAction): PageDialog | undefined {
  if (action.type === 'open') return action.dialog;
  return state?.kind === action.kind ? undefined : state;
}

/** The open dialog if it is of `kind`, narrowed to it. */
export function dialogOfKind<K extends PageDialogKind>(
  state: PageDialog | undefined,
  kind: K,
): Extract<PageDialog, { kind: K }> | undefined {
  return state?.kind === kind ? (state as Extract<PageDialog, { kind: K }>) : undefined;
}
