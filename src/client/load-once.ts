/**
 * A chunk of the app loaded once and remembered: `load()` starts the import, or hands back the one under way (a failed
 * one is forgotten, so the next call asks the host again); `loaded()` is the module once it is in, else undefined.
 */
export function loadOnce<M>(importer: () => Promise<M>) {
  let loading: Promise<M> | undefined;
  let module: M | undefined;
  return {
    load: (): Promise<M> =>
      (loading ??= importer().then(
        (value) => (module = value),
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      )),
    loaded: (): M | undefined => module,
  };
}
