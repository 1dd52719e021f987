import { Suspense, type ComponentType } from "react";
import type { PendingRequest, Receipt, RespondRequest, ToolApproval } from "../../protocol/schemas";
import { selectPendingRequests } from "../../store/selectors";
import type { SessionData } from "../../store/state";
import { lazyModule } from "../../ui/lazy-module";

/** The cards' code, kept out of the initial bundle: most chats never see an approval. */
const cardsModule = lazyModule(() => import("./approval-cards"));
export const loadApprovalCards = cardsModule.preload;
const ApprovalCard = cardsModule.component((module) => module.ApprovalCard);
const AcpApprovalCard = cardsModule.component((module) => module.AcpApprovalCard);

/** Above the question panel, but it only selects when the session's oldest pending request is an approval, so requests keep arrival order. */
export const APPROVAL_SLOT_PRIORITY = 110;

/** A pending request that asks to allow a tool call. */
export type PendingApproval = PendingRequest & { approval: ToolApproval };

/** The session's oldest pending request when it is an approval, else null (the question panel shows the oldest). */
export function selectFirstApproval(sessionId: string, state: SessionData): PendingApproval | null {
  const first = selectPendingRequests(sessionId)(state)[0];
  return first?.approval ? (first as PendingApproval) : null;
}

/**
 * The composer-slot entry for approvals, in the shape of features/chat's SlotEntry (the app
 * registers it; features do not import each other). Dismiss, offered only when the card failed to
 * render, dismisses the request, which the host reports to the model like a Deny without reason.
 */
export function createApprovalEntry(respond: (body: RespondRequest) => Promise<Receipt>) {
  function ApprovalSlot({ match }: { match: PendingApproval; sessionId: string }) {
    const { choices } = match.approval;
    return (
      <Suspense fallback={null}>
        {choices ? <AcpApprovalCard key={match.rpcId} request={{ ...match, approval: { ...match.approval, choices } }} respond={respond} /> : <ApprovalCard key={match.rpcId} request={match} respond={respond} />}
      </Suspense>
    );
  }
  const Component: ComponentType<{ match: PendingApproval; sessionId: string }> = ApprovalSlot;
  return {
    key: "approval",
    priority: APPROVAL_SLOT_PRIORITY,
    select: ({ sessionId, state }: { sessionId: string; state: SessionData }) => selectFirstApproval(sessionId, state),
    Component,
    async dismiss(match: PendingApproval, sessionId: string) {
      const receipt = await respond({ type: "cancel", rpcId: match.rpcId, sessionId });
      if (!receipt.accepted && receipt.reason !== "not-pending") throw new Error(receipt.detail);
    },
  };
}
