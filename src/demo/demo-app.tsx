import "../ui/tokens.css";
import "./demo.css";
import { LocaleProvider } from "../i18n/i18n";
import { loadLocaleTexts } from "../app/locale-texts";
import { DemoShell } from "./demo-shell";
import { settingsFromLocation } from "./frame-messages";
import { StoryFrame } from "./story-frame";

/** `/demo` shows the designers' page; `/demo?frame#<story>` is its preview frame, usable on its own. */
export default function DemoApp() {
  const isFrame = new URLSearchParams(window.location.search).has("frame");
  if (isFrame) {
    return (
      <LocaleProvider initial={settingsFromLocation(window.location).locale} loadTexts={loadLocaleTexts}>
        <StoryFrame />
      </LocaleProvider>
    );
  }
  return (
    <LocaleProvider loadTexts={loadLocaleTexts}>
      <DemoShell />
    </LocaleProvider>
  );
}
