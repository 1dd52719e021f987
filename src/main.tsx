import { lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { LocaleProvider } from "./i18n/i18n";
import { ChatApp } from "./app/chat-app";
import { loadChecks } from "./client/load-checks";
import "./app/app.css";

const DemoApp = lazy(() => import("./demo/demo-app"));

function isDemoPath(pathname: string): boolean {
  return pathname === "/demo" || pathname.startsWith("/demo/");
}

function Root() {
  if (isDemoPath(window.location.pathname)) {
    return (
      <Suspense fallback={null}>
        <DemoApp />
      </Suspense>
    );
  }
  return (
    <LocaleProvider>
      <ChatApp />
    </LocaleProvider>
  );
}

// The checks of what the host sends load alongside the first paint; a failure here is retried by the first request that needs them.
if (!isDemoPath(window.location.pathname)) loadChecks().catch((error: unknown) => console.info("the frame checks did not load yet; they are asked for again when needed", error));

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
