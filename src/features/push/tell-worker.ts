/**
 * Tells the service worker every request pending on the host, once this window knows them all (its socket's replay is in,
 * or a request was resolved since): the worker closes the notifications of any other request and sets the badge
 * (docs/protocol.md, push-close). Nothing without a worker controlling the window.
 */
export function tellWorkerPending(rpcIds: readonly string[]): void {
  const controller = typeof navigator === "undefined" ? undefined : navigator.serviceWorker?.controller;
  controller?.postMessage({ type: "parley/pending", rpcIds, at: Date.now() });
}
