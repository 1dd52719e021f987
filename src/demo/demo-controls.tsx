import type { ReactNode } from "react";
import { useCopy } from "../i18n/i18n";
import { LOCALES, type Locale } from "../i18n/locale";
import type { ThemeChoice } from "../ui/theme";
import { demoCopy } from "./copy";
import { HOST_ACTIONS, type HostAction } from "./frame-messages";
import { REPLIES, type DemoReply } from "./stories";

export type PreviewWidth = "phone" | "tablet" | "desktop";

interface DemoControlsProps {
  locale: Locale;
  onLocale: (locale: Locale) => void;
  theme: ThemeChoice;
  onTheme: (theme: ThemeChoice) => void;
  width: PreviewWidth;
  onWidth: (width: PreviewWidth) => void;
  /** The reply chosen here; null: the story's own. */
  reply: DemoReply | null;
  /** What the story replies when none is chosen here. */
  storyReply: DemoReply;
  onReply: (reply: DemoReply | null) => void;
  /** Makes the preview's fake host do something, as the real host would. */
  onHostAction: (action: HostAction) => void;
}

const REPLY_KEYS = {
  accept: "replyAccept",
  "not-pending": "replyNotPending",
  "bad-response": "replyBadResponse",
  "network-error": "replyNetworkError",
  "lost-reply": "replyLost",
  slow: "replySlow",
} as const satisfies Record<DemoReply, string>;

const HOST_ACTION_KEYS = {
  ask: "hostAsk",
  "answer-elsewhere": "hostAnswerElsewhere",
  restart: "hostRestart",
} as const satisfies Record<HostAction, string>;

const THEME_KEYS = { light: "themeLight", dark: "themeDark", system: "themeSystem" } as const satisfies Record<ThemeChoice, string>;
const THEMES: readonly ThemeChoice[] = ["light", "dark", "system"];

const WIDTH_KEYS = { phone: "widthPhone", tablet: "widthTablet", desktop: "widthDesktop" } as const satisfies Record<PreviewWidth, string>;
const WIDTHS: readonly PreviewWidth[] = ["phone", "tablet", "desktop"];

/** Each language is named in itself, the same in every catalogue. */
const LOCALE_NAME_KEYS = { en: "languageEnglish", "zh-CN": "languageChinese" } as const satisfies Record<Locale, string>;

function Segmented<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
}: {
  legend: string;
  name: string;
  value: T;
  options: { value: T; label: ReactNode; lang?: string }[];
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="demo__segmented">
      <legend className="demo__control-label">{legend}</legend>
      <div className="demo__segments">
        {options.map((option) => (
          <label key={option.value} className="demo__segment" lang={option.lang}>
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Locale, theme, width, the fake host's reply and what the fake host does next. */
export function DemoControls(props: DemoControlsProps) {
  const t = useCopy(demoCopy);
  return (
    <div className="demo__controls" role="group" aria-label={t("controlsHeading")}>
      <Segmented
        legend={t("language")}
        name="demo-locale"
        value={props.locale}
        onChange={props.onLocale}
        options={LOCALES.map((locale) => ({ value: locale, label: t(LOCALE_NAME_KEYS[locale]), lang: locale }))}
      />
      <Segmented
        legend={t("theme")}
        name="demo-theme"
        value={props.theme}
        onChange={props.onTheme}
        options={THEMES.map((theme) => ({ value: theme, label: t(THEME_KEYS[theme]) }))}
      />
      <Segmented
        legend={t("width")}
        name="demo-width"
        value={props.width}
        onChange={props.onWidth}
        options={WIDTHS.map((width) => ({ value: width, label: t(WIDTH_KEYS[width]) }))}
      />
      <label className="demo__reply">
        <span className="demo__control-label">{t("reply")}</span>
        <select value={props.reply ?? ""} onChange={(event) => props.onReply(event.target.value === "" ? null : (event.target.value as DemoReply))}>
          <option value="">{t("replyStory", { reply: t(REPLY_KEYS[props.storyReply]) })}</option>
          {REPLIES.map((reply) => (
            <option key={reply} value={reply}>
              {t(REPLY_KEYS[reply])}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="demo__segmented">
        <legend className="demo__control-label">{t("hostActions")}</legend>
        <div className="demo__host-actions">
          {HOST_ACTIONS.map((action) => (
            <button key={action} type="button" className="demo__button" onClick={() => props.onHostAction(action)}>
              {t(HOST_ACTION_KEYS[action])}
            </button>
          ))}
        </div>
      </fieldset>
    </div>
  );
}
