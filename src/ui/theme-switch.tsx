import { useEffect } from "react";
import { useCopy } from "../i18n/i18n";
import { LabelledSelect } from "./labelled-select";
import { startTheme, THEME_CHOICES, useTheme } from "./theme";
import { themeCopy } from "./theme-copy";

/** Light, dark or the system's choice; remembered, and followed by every open tab. */
export function ThemeSwitch() {
  const t = useCopy(themeCopy);
  const [theme, setTheme] = useTheme();
  useEffect(() => startTheme(), []);
  return <LabelledSelect label={t("theme")} value={theme} choices={THEME_CHOICES.map((choice) => ({ value: choice, label: t(choice) }))} onChange={setTheme} />;
}
