import { Component, type ErrorInfo, type ReactNode } from "react";

export interface ErrorBoundaryProps {
  /** What to show instead of the children once they threw; `retry` renders them again. */
  fallback: (error: unknown, retry: () => void) => ReactNode;
  /** A caught error is cleared when this value changes (compared with Object.is). */
  resetKey?: unknown;
  children: ReactNode;
}

interface ErrorBoundaryState {
  caught: { error: unknown } | null;
}

/** Keeps a render error inside its subtree so the rest of the page stays usable; `resetKey` clears it on a change. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { caught: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { caught: { error } };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error("a part of the page failed to render", error, info.componentStack);
  }

  override componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.caught && !Object.is(previous.resetKey, this.props.resetKey)) this.setState({ caught: null });
  }

  retry = (): void => {
    this.setState({ caught: null });
  };

  override render(): ReactNode {
    if (this.state.caught) return this.props.fallback(this.state.caught.error, this.retry);
    return this.props.children;
  }
}

/** A thrown value as one line of text. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
