import { lazy, type ComponentType, type LazyExoticComponent } from "react";
import { loadOnce } from "../client/load-once";

/**
 * A module of lazily loaded components whose code can be fetched before any of them renders. `preload()` starts the
 * import once (see loadOnce). A component made by `component()` renders from the module at once when `preload()` has
 * already finished, instead of suspending: after a boundary suspends, React shows its fallback and holds the content
 * back for up to 300 ms, which a preloaded panel must not wait for.
 */
export function lazyModule<M>(importer: () => Promise<M>) {
  const chunk = loadOnce(importer);
  const component = <P extends object>(pick: (module: M) => ComponentType<P>): LazyExoticComponent<ComponentType<P>> =>
    lazy(() => {
      const module = chunk.loaded();
      return (module === undefined ? chunk.load() : settled(module)).then((value) => ({ default: pick(value) }));
    });
  return { preload: chunk.load, component };
}

/**
 * A thenable that calls back inside `then` and hands on what the callback returns the same way. React.lazy reads a
 * module handed over like this as loaded before it returns, so the first render does not suspend. It is typed as a
 * Promise only because React.lazy's parameter is declared as one.
 */
function settled<T>(value: T): Promise<T> {
  return { then: (next: (value: T) => unknown) => settled(next(value)) } as unknown as Promise<T>;
}
