import { lazy, Suspense, type ComponentProps } from "react";
import { showHiddenCharacters } from "../protocol/hidden-characters";
import "./diff-view.css";

/** The diff library and its rows load with the first diff shown, not with the app. */
const Renderer = lazy(() => import("./diff-view-renderer"));

export type DiffViewProps = ComponentProps<typeof Renderer>;

/** A readable unified diff; until its renderer has loaded, the new text as plain text under its path. */
export function DiffView(props: DiffViewProps) {
  const loading = (
    <div className="diff-view">
      <div className="diff-view__path">
        <bdi>{showHiddenCharacters(props.path)}</bdi>
      </div>
      <pre className="diff-view__lines" role="region" aria-label={props.labels.region} tabIndex={0} aria-busy="true">
        {showHiddenCharacters(props.newText)}
      </pre>
    </div>
  );
  return (
    <Suspense fallback={loading}>
      <Renderer {...props} />
    </Suspense>
  );
}
