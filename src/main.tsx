import { lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { LocaleProvider } from "./i18n/i18n";
import { ChatApp } from "./app/chat-app";
import { loadLocaleTexts } from "./app/locale-texts";
import { loadChecks } from "./client/load-checks";
import "./app/app.css";

const DemoApp = lazy(() => import("./demo/demo-app"));

function isDemoPath(pathname: string): boolean {
  return pathname === "/demo" || pathname.startsWith("/demo/");
}

function Root() {
  if (isDemoPath(window.location.pathname)) return <DemoApp />;
  return (
    <LocaleProvider loadTexts={loadLocaleTexts}>
      <ChatApp />
    </LocaleProvider>
  );
}

// The checks of what the host sends load alongside the first paint; a failure here is retried by the first request that needs them.
if (!isDemoPath(window.location.pathname)) loadChecks().catch((error: unknown) => console.info("the frame checks did not load yet; they are asked for again when needed", error));

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    {/* The demo's code, and a locale's texts the first screen leaves out, hold the first render until they load. */}
    <Suspense fallback={null}>
      <Root />
    </Suspense>
  </StrictMode>,
);
