import { Suspense, useEffect } from "react";
import { ErrorBoundary } from "./error-boundary";
import type { InlineEditProps } from "./inline-edit";
import { lazyModule } from "./lazy-module";

const editor = lazyModule(() => import("./inline-edit"));
const Editor = editor.component((module) => module.InlineEdit);

/** Fetches the title editor's code ahead of the first rename (the app does once it has settled). */
export const preloadInlineEdit = editor.preload;

/** Ends an edit whose field could not load, so what it stood in for (the title, its buttons) comes back. */
function GaveUp({ onDone }: { onDone: () => void }) {
  useEffect(onDone, [onDone]);
  return null;
}

/**
 * `InlineEdit` in a chunk of its own: the field exists only while a title is edited. If its code cannot load (the host is
 * unreachable, so no rename could be saved either) the edit ends and the title shows as it was; the next rename tries again.
 */
export function LazyInlineEdit(props: InlineEditProps) {
  return (
    <ErrorBoundary fallback={() => <GaveUp onDone={props.onDone} />}>
      <Suspense fallback={null}>
        <Editor {...props} />
      </Suspense>
    </ErrorBoundary>
  );
}
