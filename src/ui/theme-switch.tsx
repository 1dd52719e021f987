import { useEffect, useId } from "react";
import { useCopy } from "../i18n/i18n";
import { startTheme, THEME_CHOICES, useTheme, type ThemeChoice } from "./theme";
import { themeCopy } from "./theme-copy";
import "./theme-switch.css";

/** Light, dark or the system's choice; remembered, and followed by every open tab. */
export function ThemeSwitch() {
  const t = useCopy(themeCopy);
  const [theme, setTheme] = useTheme();
  const id = useId();
  useEffect(() => startTheme(), []);
  return (
    <div className="theme-switch">
      <label htmlFor={id} className="theme-switch__label">
        {t("theme")}
      </label>
      <select id={id} className="theme-switch__select" value={theme} onChange={(event) => setTheme(event.target.value as ThemeChoice)}>
        {THEME_CHOICES.map((choice) => (
          <option key={choice} value={choice}>
            {t(choice)}
          </option>
        ))}
      </select>
    </div>
  );
}
