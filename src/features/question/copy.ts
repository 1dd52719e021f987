import { englishFirst } from "../../i18n/locale";

export type QuestionMessageKey =
  | "requestPosition"
  | "announceStep"
  | "collapse"
  | "expand"
  | "dismiss"
  | "discardPrompt"
  | "keepAnswering"
  | "discard"
  | "previousQuestion"
  | "nextQuestion"
  | "skip"
  | "next"
  | "submit"
  | "submitting"
  | "cancelling"
  | "sent"
  | "customLabel"
  | "customPlaceholder"
  | "recommended"
  | "multiSelectHint"
  | "completeFirst"
  | "rejected"
  | "waitingOne"
  | "answer"
  | "planReview"
  | "planQuestion"
  | "planMoreBelow"
  | "approve"
  | "refuse"
  | "chatAboutIt"
  | "planNoteLabel"
  | "planNotePlaceholder"
  | "arrivedOne"
  | "arrivedMany"
  | "arrivedOneTouch"
  | "defaultHidden"
  | "arrivedPlan"
  | "arrivedPlanTouch"
  | "waitingPlan"
  | "arrivedManyTouch"
  | "shortcutMac"
  | "shortcutOther"
  | "allAnswered"
  | "answeredSkipped"
  | "leftOf"
  | "stepperLabel"
  | "stepName"
  | "stepAnswered"
  | "stepSkipped"
  | "stepNotYet"
  | "review"
  | "reviewHeading"
  | "reviewStep"
  | "reviewHint"
  | "reviewMissing"
  | "reviewSkipped"
  | "reviewNotAnswered"
  | "change"
  | "changeTarget"
  | "askedBy"
  | "retiredAnswered"
  | "retiredUnconfirmed"
  | "retiredDismissed"
  | "retiredStopped"
  | "retiredAway"
  | "retiredRestart"
  | "retiredHostLost"
  | "retiredHint"
  | "retiredUnconfirmedHint"
  | "copyAnswers"
  | "copied"
  | "copyManually"
  | "dismissNotice"
  | "askerAssistant"
  | "askerServer"
  | "askerServerStart"
  | "requiredBadge"
  | "requiredHint"
  | "defaultBadge"
  | "defaultHint"
  | "selectAtLeast"
  | "selectAtMost"
  | "selectBetween"
  | "problemEmail"
  | "problemUrl"
  | "problemDate"
  | "problemDateTime"
  | "problemNumber"
  | "problemInteger"
  | "problemMinLength"
  | "problemMaxLength"
  | "problemMinimum"
  | "problemMaximum"
  | "problemTooFew"
  | "problemTooMany"
  | "problemRequired"
  | "reviewRequired"
  | "reviewBlocked"
  | "yesOption"
  | "noOption"
  | "boundsBetween"
  | "boundsAtLeast"
  | "boundsAtMost"
  | "boundsWholeBetween"
  | "boundsWholeAtLeast"
  | "boundsWholeAtMost"
  | "boundsWhole"
  | "boundsLength"
  | "boundsMinLength"
  | "boundsMaxLength"
  | "manyOptions"

/** Every string the question panel shows; its Chinese (`copy-zh.ts`) comes with the locale's chunk (`src/app/zh-CN.ts`). */
export const questionCopy = englishFirst<QuestionMessageKey>({
  requestPosition: "Request {index} of {count}",
  announceStep: "Question {index} of {count}: {question}",
  collapse: "Collapse the question card",
  expand: "Expand the question card",
  dismiss: "Dismiss all questions",
  discardPrompt: "Discard your answers?",
  keepAnswering: "Keep answering",
  discard: "Discard",
  previousQuestion: "Previous question",
  nextQuestion: "Next question",
  skip: "Skip this question",
  next: "Next",
  submit: "Submit",
  submitting: "Submitting…",
  cancelling: "Dismissing…",
  sent: "Sent. Waiting for {asker}…",
  customLabel: "Type your answer",
  customPlaceholder: "Type your answer",
  recommended: "Recommended",
  multiSelectHint: "Choose all that apply.",
  completeFirst: "Please complete this question first.",
  rejected: "question response rejected: {reason}",
  waitingOne: "1 question waiting",
  answer: "Answer",
  planReview: "Plan review",
  planQuestion: "Approve this plan?",
  planMoreBelow: "More of the plan below: read it before you approve",
  approve: "Approve",
  refuse: "Keep planning",
  chatAboutIt: "Chat about it",
  planNoteLabel: "Anything to add?",
  planNotePlaceholder: "Optional: a note sent with Approve, or what should change with Keep planning",
  arrivedOne: "{asker} asks a question. Press {shortcut} to answer.",
  arrivedMany: "{asker} asks {count} questions. Press {shortcut} to answer.",
  arrivedOneTouch: "{asker} asks a question. Tap the panel to answer.",
  defaultHidden: "The suggested answer holds hidden characters: {text}",
  arrivedPlan: "{asker} asks you to review a plan. Press {shortcut} to answer.",
  arrivedPlanTouch: "{asker} asks you to review a plan. Tap the panel to answer.",
  waitingPlan: "A plan waiting for review",
  arrivedManyTouch: "{asker} asks {count} questions. Tap the panel to answer.",
  shortcutMac: "Option+Q",
  shortcutOther: "Alt+Q",
  allAnswered: "All {count} answered",
  answeredSkipped: "{answered} answered, {skipped} skipped",
  leftOf: "{left} of {count} left",
  stepperLabel: "Questions",
  stepName: "Question {index} of {count}, {state}",
  stepAnswered: "answered",
  stepSkipped: "skipped",
  stepNotYet: "not answered yet",
  review: "Review",
  reviewHeading: "Review your answers",
  reviewStep: "Review",
  reviewHint: "This is what will be sent.",
  reviewMissing: "{count} not answered: they are sent as skipped unless you change them.",
  reviewSkipped: "Skipped",
  reviewNotAnswered: "Not answered (sent as skipped)",
  change: "Change",
  changeTarget: "Change question {index}",
  askedBy: "Asked by {asker}",
  retiredAnswered: "Answered in another tab",
  retiredUnconfirmed: "Answered, perhaps with these answers: the host's reply to this tab never came",
  retiredDismissed: "Dismissed in another tab",
  retiredStopped: "{asker} stopped waiting",
  retiredAway: "Answered or stopped while this tab was offline",
  retiredRestart: "Host lost: it restarted, and {asker} no longer waits for these answers",
  retiredHostLost: "Host lost: the host that held it stopped, and {asker} no longer waits for these answers",
  retiredHint: "These answers were not sent from this tab. They stay here, through a reload too, until you dismiss this notice or close the tab.",
  retiredUnconfirmedHint: "If the answer taken was these, there is nothing more to do. They stay here, through a reload too, until you dismiss this notice or close the tab.",
  copyAnswers: "Copy answers",
  copied: "Copied to the clipboard.",
  copyManually: "The answers are selected: press Ctrl+C (⌘C on a Mac) to copy them.",
  dismissNotice: "Dismiss",
  askerAssistant: "Parley's assistant",
  askerServer: "the {name} server",
  askerServerStart: "The {name} server",
  requiredBadge: "Required",
  requiredHint: "An answer is required: this question cannot be skipped.",
  defaultBadge: "Default",
  defaultHint: "Pre-filled with the default answer. Change it if you like.",
  selectAtLeast: "Choose at least {min}.",
  selectAtMost: "Choose up to {max}.",
  selectBetween: "Choose {min} to {max}.",
  problemEmail: "Enter an email address, such as name@example.com.",
  problemUrl: "Enter a full web address, such as https://example.com.",
  problemDate: "Enter a date as YYYY-MM-DD.",
  problemDateTime: "Enter a date and time with its time zone, as YYYY-MM-DDTHH:MMZ or YYYY-MM-DDTHH:MM+08:00.",
  problemNumber: "Enter a number.",
  problemInteger: "Enter a whole number.",
  problemMinLength: "Use at least {limit} characters.",
  problemMaxLength: "Use at most {limit} characters.",
  problemMinimum: "Enter {limit} or more.",
  problemMaximum: "Enter {limit} or less.",
  problemTooFew: "Choose at least {min} options.",
  problemTooMany: "Choose at most {max} options.",
  problemRequired: "This question needs an answer.",
  reviewRequired: "Required: answer it before sending",
  reviewBlocked: "Some answers are missing or not valid. Change them before sending.",
  yesOption: "Yes",
  noOption: "No",
  boundsBetween: "From {min} to {max}.",
  boundsAtLeast: "{min} or more.",
  boundsAtMost: "{max} or less.",
  boundsWholeBetween: "A whole number from {min} to {max}.",
  boundsWholeAtLeast: "A whole number, {min} or more.",
  boundsWholeAtMost: "A whole number, {max} or less.",
  boundsWhole: "A whole number.",
  boundsLength: "{min} to {max} characters.",
  boundsMinLength: "At least {min} characters.",
  boundsMaxLength: "Up to {max} characters.",
  manyOptions: "{count} options: the list scrolls. 1–9 choose the first nine; ↑ ↓ reach the rest, Home and End the ends.",
});
