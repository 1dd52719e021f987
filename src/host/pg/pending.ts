import { judgeResponse } from "../../protocol/response-verdict";
import type { Receipt } from "../../protocol/schemas";
import type { RuleJudge } from "../pending/answer-rule";
import type { Logger } from "../log";
import { refusalByRule, type PendingTable } from "../pending/pending-table";
import { StorageError } from "../storage-error";
import type { Cluster } from "./cluster";

/** The pending table of a cluster host: this host's questions live in its own table; answers are claimed in Postgres. */
export interface ClusterPendingTable extends Omit<PendingTable, "respond"> {
  /** Claims the question cluster-wide with one conditional UPDATE; the owner's waiting call settles once (docs/protocol.md, cluster-respond). */
  respond(body: unknown): Promise<Receipt>;
  /** Pending questions of this session on other hosts. */
  remoteCountFor(sessionId: string): number;
}

/**
 * Wraps the host's own pending table: asks, counts and change events stay local; `replay` is every
 * pending question of the cluster; a response is checked against the question wherever it was asked,
 * claimed by `UPDATE … WHERE state = 'pending' RETURNING owner`, and handed to the owner to settle.
 */
export function createClusterPendingTable(local: PendingTable, cluster: Cluster, log: Logger, judge?: RuleJudge): ClusterPendingTable {
  cluster.setOwnPending(local);
  const settleHere = async (body: unknown) => {
    // The answer is kept in its pending row already: a failed write of the tool row is retried by the chat, not refused.
    const receipt = await local.respond(body, true);
    if (!receipt.accepted) log({ event: "cluster/answer-dropped", reason: receipt.reason });
  };
  cluster.onAnswer((body) => {
    settleHere(body).catch((error: unknown) => log({ event: "cluster/answer-failed", error: error instanceof Error ? error.message : String(error) }));
  });

  return {
    ask: (request) => local.ask(request),
    countFor: (sessionId) => local.countFor(sessionId),
    remoteCountFor: (sessionId) => cluster.pending().filter((entry) => entry.owner !== cluster.instance && entry.frame.sessionId === sessionId).length,
    onChange: (listener) => local.onChange(listener),
    dispose: () => local.dispose(),
    replay: () => cluster.pending().map((entry) => entry.frame),
    ruleOf: (rpcId) => local.ruleOf(rpcId),
    messageOf: (rpcId) => local.messageOf(rpcId),

    async respond(body) {
      const refusal = cluster.refusal();
      if (refusal !== null) throw new StorageError("STORAGE_BUSY", refusal, null);
      // A response can reach this host before the question's notification does (no sticky sessions): ask the database then.
      const rpcId = (body as { rpcId?: unknown } | null)?.rpcId;
      if (typeof rpcId === "string" && !cluster.question(rpcId)) await cluster.flush();
      const fetched = typeof rpcId === "string" && !cluster.question(rpcId) ? await cluster.fetchPending(rpcId) : undefined;
      const asked = (id: string) => cluster.question(id) ?? (id === rpcId ? fetched : undefined);
      const verdict = judgeResponse(body, (id) => asked(id)?.frame);
      if (!verdict.accepted) return verdict.receipt;
      // Judged by the ask's own rule too (an elicitation's schema), wherever it was asked, before it is claimed.
      const refused = refusalByRule(verdict, asked(verdict.rpcId), judge);
      if (refused) return refused;
      const owner = await cluster.claim(verdict.rpcId, verdict.outcome, body);
      if (owner === null) return { accepted: false, reason: "not-pending", detail: `question ${verdict.rpcId} is not pending (unknown, already answered, cancelled or aborted)` };
      // Another owner was handed the response by the claim.
      if (owner === cluster.instance) await settleHere(body);
      return { accepted: true };
    },
  };
}
