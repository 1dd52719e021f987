import type { Page } from "@playwright/test";

/**
 * Stops the page's clock (installed with `page.clock.install()`) as soon as it can: a busy machine may take a while
 * between reading the time and pausing at it.
 */
export async function pauseClock(page: Page): Promise<void> {
  for (;;) {
    const now = await page.evaluate(() => Date.now());
    try {
      await page.clock.pauseAt(now + 1);
      return;
    } catch (error) {
      if (!String(error).includes("past")) throw error;
    }
  }
}
