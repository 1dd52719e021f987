import { Suspense } from "react";
import { ErrorBoundary } from "../../ui/error-boundary";
import { lazyModule } from "../../ui/lazy-module";
import type { CommandMenuProps } from "./command-menu";

const menu = lazyModule(() => import("./command-menu"));
const Menu = menu.component((module) => module.CommandMenu);
// Fetched as the app starts: by the time a `/` is typed it is in, and the menu opens at once.
menu.preload().catch((error: unknown) => console.warn("could not preload the command menu", error));

/** `CommandMenu` in a chunk of its own: it shows only once a `/` is typed. Until it is in, or if it cannot load, the box works without it. */
export function LazyCommandMenu(props: CommandMenuProps) {
  return (
    <ErrorBoundary fallback={() => null}>
      <Suspense fallback={null}>
        <Menu {...props} />
      </Suspense>
    </ErrorBoundary>
  );
}
