/** A `watch()` that adds these capture listeners to the document the first time it is called; later calls, and calls without a document, do nothing. */
export function documentWatcher(listeners: readonly (readonly [type: string, listener: (event: Event) => void])[]): () => void {
  let listening = false;
  return () => {
    if (listening || typeof document === "undefined") return;
    listening = true;
    for (const [type, listener] of listeners) document.addEventListener(type, listener, true);
  };
}
