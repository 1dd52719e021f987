interface IconButtonProps {
  /** The accessible name; the glyph itself is hidden from assistive technology. */
  label: string;
  glyph: string;
  onClick: () => void;
  disabled?: boolean | undefined;
  /** Set on a button that opens or closes the panel. */
  expanded?: boolean | undefined;
  /** `data-action`, for the keyboard rules that find a button by what it does. */
  action?: string | undefined;
  className?: string | undefined;
}

/** The panel's square icon button. */
export function IconButton({ label, glyph, onClick, disabled, expanded, action, className }: IconButtonProps) {
  return (
    <button
      type="button"
      className={className === undefined ? "composer-card__button question-panel__icon-button" : `composer-card__button question-panel__icon-button ${className}`}
      aria-label={label}
      aria-expanded={expanded}
      data-action={action}
      disabled={disabled}
      onClick={onClick}
    >
      <span aria-hidden="true">{glyph}</span>
    </button>
  );
}
