import type { ComponentProps } from "react";
import "./ui.css";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger";

/** A native button with the house look; `type` defaults to "button". */
export function Button({ variant = "secondary", className, type = "button", ...props }: ComponentProps<"button"> & { variant?: ButtonVariant }) {
  const classes = className ? `ui-button ui-button--${variant} ${className}` : `ui-button ui-button--${variant}`;
  return <button type={type} className={classes} {...props} />;
}
