/** The part of the Web Locks API a tab's navigator and the service worker's share. */
export interface Locks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/**
 * Runs `work` under the Web Lock of request `rpcId`'s notification, which a tab and the service worker both take to check,
 * show or close it (docs/architecture.md, push): a push shown while a tab checks whether one is shown waits for the tab's
 * notification and replaces it. Without Web Locks (older browsers) `work` runs at once. The worker names the lock the same
 * way in its own script (sw/sw.ts), which takes no module of the page's.
 */
export function underNotificationLock<T>(locks: Locks | undefined, rpcId: string, work: () => Promise<T>): Promise<T> {
  return locks ? locks.request(`parley-notification:${rpcId}`, work) : work();
}
