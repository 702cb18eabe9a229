/** Small pieces every view uses: error notes, dialogs, form fields, badges, tiles. */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { ApiError } from './api.js';

/** An error as the operator should read it; a route the gateway lacks is said to be missing. */
export function ErrorNote({ error }: { error: Error | undefined }) {
  if (!error) return null;
  if (error instanceof ApiError && error.missingRoute) return <Unavailable />;
  return (
    <p class="error" role="alert">
      {error.message}
    </p>
  );
}

export function Unavailable({ what = 'This' }: { what?: string }) {
  return <p class="note unavailable">{what} is not available on this gateway (its admin API lacks the endpoint).</p>;
}

export function isMissing(error: Error | undefined): boolean {
  return error instanceof ApiError && error.missingRoute;
}

/** A modal `<dialog>`: open while mounted, Escape or the close button calls `onClose`. */
export function Dialog({ title, onClose, children, wide }: { title: string; onClose: () => void; children: ComponentChildren; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current!;
    if (!dialog.open) dialog.showModal();
    const cancel = (event: Event) => {
      event.preventDefault();
      onClose();
    };
    dialog.addEventListener('cancel', cancel);
    return () => dialog.removeEventListener('cancel', cancel);
  }, [onClose]);
  return (
    <dialog ref={ref} class={wide ? 'wide' : undefined} aria-label={title}>
      <header>
        <h2>{title}</h2>
        <button type="button" class="plain" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      {children}
    </dialog>
  );
}

/** A labelled form field with the server's complaint about it, when it named this field. */
export function Field({ label, error, hint, children }: { label: string; error?: string; hint?: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is the children passed in
    <label class={error ? 'field invalid' : 'field'}>
      <span>{label}</span>
      {children}
      {hint && !error ? <small>{hint}</small> : null}
      {error ? <small class="error">{error}</small> : null}
    </label>
  );
}

/** The message of `error` when it names `param` (or a field under it), else undefined. */
export function fieldError(error: Error | undefined, param: string): string | undefined {
  if (!(error instanceof ApiError) || !error.param) return undefined;
  return error.param === param || error.param.startsWith(`${param}.`) ? error.message : undefined;
}

/** The form's error when no field shows it. */
export function formError(error: Error | undefined, fields: string[]): Error | undefined {
  if (!error) return undefined;
  return fields.some((field) => fieldError(error, field)) ? undefined : error;
}

const TONES: Record<string, string> = {
  active: 'good',
  closed: 'good',
  succeeded: 'good',
  delivered: 'good',
  SUCCESS: 'good',
  ok: 'good',
  disabled: 'bad',
  open: 'bad',
  failed: 'bad',
  FAILURE: 'bad',
  CANCEL: 'bad',
  half_open: 'warn',
  pending: 'warn',
  IN_PROGRESS: 'warn',
  SUBMITTED: 'warn',
  NOT_START: 'warn',
  MODAL: 'warn',
};

export function Badge({ text, tone }: { text: string; tone?: string }) {
  return <span class={`badge ${tone ?? TONES[text] ?? ''}`}>{text.replace(/_/g, ' ')}</span>;
}

export function Tile({ label, value }: { label: string; value: string }) {
  return (
    <div class="tile">
      <span>{label}</span>
      <strong>{value}</strong>
    </div>
  );
}

/** Value of an input event's element. */
export const valueOf = (event: Event) => (event.currentTarget as HTMLInputElement).value;
export const checkedOf = (event: Event) => (event.currentTarget as HTMLInputElement).checked;
