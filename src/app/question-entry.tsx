import { Suspense } from "react";
import type { PendingRequest, Receipt, RespondRequest } from "../protocol/schemas";
import { defineSlotEntry, type SlotComponentProps, type SlotEntry } from "../features/chat/slot-entries";
import { selectFirstRetired, selectPendingRequests } from "../store/selectors";
import type { RetiredRequest } from "../store/state";
import { createApprovalEntry } from "../features/approval/approval-entry";
import { deleteDraft } from "../features/question/draft-storage";
import type { PlanChat } from "../features/question/question-panel";
import { lazyModule } from "../ui/lazy-module";

/** Outranks every other composer takeover: a waiting question blocks the turn. */
export const QUESTION_SLOT_PRIORITY = 100;

/** The question panel's code, kept out of the initial bundle and loaded once the app has settled. */
const panelModule = lazyModule(() => import("../features/question/question-panel"));

/** Loads the question panel's code; the app starts this when idle so the first question shows at once. */
export const loadQuestionPanel = panelModule.preload;

/** Just below the question panel: a waiting question comes first, the notice about a lost one after it. */
export const RETIRED_SLOT_PRIORITY = 90;

const RetiredNotice = panelModule.component((module) => module.RetiredNotice);

/** The composer-slot entry for a request that went away while this tab held unsent answers for it; `forget` removes it from the store. */
export function createRetiredEntry(forget: (rpcId: string) => void): SlotEntry {
  function RetiredSlot({ match }: SlotComponentProps<RetiredRequest>) {
    return (
      <Suspense fallback={null}>
        <RetiredNotice key={match.request.rpcId} retired={match} onDismiss={() => forget(match.request.rpcId)} />
      </Suspense>
    );
  }
  return defineSlotEntry<RetiredRequest>({
    key: "retired-question",
    priority: RETIRED_SLOT_PRIORITY,
    select: ({ sessionId, state }) => selectFirstRetired(sessionId)(state),
    Component: RetiredSlot,
    async dismiss(match) {
      deleteDraft(match.request.rpcId);
      forget(match.request.rpcId);
    },
  });
}

const QuestionPanel = panelModule.component((module) => module.QuestionPanel);

/** The composer-slot entry that shows the session's first pending request in the question panel. */
export function createQuestionEntry(respond: (body: RespondRequest) => Promise<Receipt>, planChat?: PlanChat): SlotEntry {
  function QuestionSlot({ match }: SlotComponentProps<readonly PendingRequest[]>) {
    const request = match[0]!;
    return (
      <Suspense fallback={null}>
        <QuestionPanel key={request.rpcId} request={request} position={{ index: 0, count: match.length }} respond={respond} autoFocus planChat={planChat} />
      </Suspense>
    );
  }
  return defineSlotEntry<readonly PendingRequest[]>({
    key: "question",
    priority: QUESTION_SLOT_PRIORITY,
    select: ({ sessionId, state }) => {
      const requests = selectPendingRequests(sessionId)(state);
      return requests.length > 0 ? requests : null;
    },
    Component: QuestionSlot,
    async dismiss(match, sessionId) {
      const request = match[0]!;
      const receipt = await respond({ type: "cancel", rpcId: request.rpcId, sessionId });
      if (!receipt.accepted && receipt.reason !== "not-pending") throw new Error(receipt.detail);
    },
  });
}

/** What the composer slot's entries need from the session engine and the store. */
export interface SlotEntryDeps {
  respond: (body: RespondRequest) => Promise<Receipt>;
  stopTurn: (sessionId: string) => Promise<void>;
  moveToComposer: (sessionId: string, text: string) => void;
  dismissRetired: (rpcId: string) => void;
}

/**
 * The composer slot's entries, in the order the slot asks them (docs/architecture.md, "How to add a
 * slot entry"): questions, retired notices, tool approvals. The app and the demo both use this list.
 */
export function createSlotEntries(deps: SlotEntryDeps): SlotEntry[] {
  return [
    createQuestionEntry(deps.respond, { stopTurn: deps.stopTurn, moveToComposer: deps.moveToComposer }),
    createRetiredEntry(deps.dismissRetired),
    defineSlotEntry(createApprovalEntry(deps.respond)),
  ];
}
