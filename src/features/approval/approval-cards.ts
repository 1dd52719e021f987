/** Both approval cards in one chunk, loaded when the first approval arrives (or preloaded once the app has settled). */
export { ApprovalCard } from "./approval-card";
export { AcpApprovalCard } from "./acp-approval-card";
