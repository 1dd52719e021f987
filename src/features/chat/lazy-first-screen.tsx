import { Suspense } from "react";
import { useCopy } from "../../i18n/i18n";
import { ErrorBoundary } from "../../ui/error-boundary";
import { lazyModule } from "../../ui/lazy-module";
import { chatCopy } from "./copy";
import type { FirstScreenProps } from "./first-screen";

const screen = lazyModule(() => import("./first-screen"));
const Screen = screen.component((module) => module.FirstScreen);
// Fetched as the app starts, beside its first requests: an empty chat is the first thing a newcomer sees.
screen.preload().catch((error: unknown) => console.warn("could not preload the first screen", error));

/**
 * `FirstScreen` in a chunk of its own, fetched at start: only an empty chat shows it. Until it is in, or if it cannot
 * load (the host is unreachable), the chat says it is empty.
 */
export function LazyFirstScreen(props: FirstScreenProps) {
  const t = useCopy(chatCopy);
  const empty = (
    <div className="transcript__empty first-screen">
      <p className="transcript__empty-title">{t("emptyTitle")}</p>
    </div>
  );
  return (
    <ErrorBoundary fallback={() => empty}>
      <Suspense fallback={empty}>
        <Screen {...props} />
      </Suspense>
    </ErrorBoundary>
  );
}
