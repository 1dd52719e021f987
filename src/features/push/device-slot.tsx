import { Suspense, useSyncExternalStore } from "react";
import { ErrorBoundary } from "../../ui/error-boundary";
import { onPushSettingsReady, pushSettingsReady } from "./settings-ready";
import { lazyModule } from "../../ui/lazy-module";

const DeviceSettings = lazyModule(() => import("./device-settings")).component((module) => module.DeviceSettings);

/** The sidebar footer's place for this device's push settings: loaded once the service worker is registered. */
export function DeviceSettingsSlot() {
  const ready = useSyncExternalStore(onPushSettingsReady, pushSettingsReady, () => false);
  if (!ready) return null;
  return (
    <ErrorBoundary fallback={() => null}>
      <Suspense fallback={null}>
        <DeviceSettings />
      </Suspense>
    </ErrorBoundary>
  );
}
