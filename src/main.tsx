import { lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { LocaleProvider } from "./i18n/i18n";
import { ChatApp } from "./app/chat-app";
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

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
