// The description of a dialog (docs/product.md#dialogs): pages hand one of these to the dialog
// provider instead of owning modal state themselves.
import type { ReactNode } from 'react';

/** The colour of a dialog button. */
export type DialogButtonVariant = 'primary' | 'secondary' | 'critical';

export interface DialogAttributes {
  /** Shown above the title. */
  icon?: ReactNode;
  title?: ReactNode;
  /** A string becomes a paragraph; anything else is rendered as given. */
  content?: ReactNode;
  /** Clicks on the backdrop do not close the dialog (Escape and the close button still do). */
  staticBackdrop?: boolean;
  /** Only the dialog's buttons close it: no backdrop click, no Escape, no close button in the title. */
  nonClosable?: boolean;
  /** The main action. Its button shows a loading state while `action` runs, then the dialog closes. */
  proceed?: DialogProceedButton;
  /** The button that dismisses the dialog; `action` runs after it closed. */
  close?: DialogCloseButton;
  /** More buttons between close and proceed; each closes the dialog, then runs its action. */
  buttons?: DialogExtraButton[];
  /** How the buttons are laid out; `row` by default. */
  buttonDirection?: 'row' | 'column';
}

export interface DialogProceedButton {
  text: string;
  variant?: DialogButtonVariant;
  disabled?: boolean;
  /**
   * Runs when the button is pressed, with the button already loading. It may call `setLoading` to
   * change that (for example to stop the spinner before it asks for something else).
   */
  action: (setLoading: (loading: boolean) => void) => void | Promise<void>;
}

export interface DialogCloseButton {
  text?: string;
  variant?: DialogButtonVariant;
  action?: () => void;
}

export interface DialogExtraButton {
  text: string;
  variant?: DialogButtonVariant;
  disabled?: boolean;
  action: () => void;
}
