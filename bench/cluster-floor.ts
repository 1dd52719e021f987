import { randomUUID } from "node:crypto";
import pg from "pg";

/**
 * The database's part of an answered question in a cluster, without Parley: bare `pg` clients for 3 hosts run the
 * statements a cluster cannot do without (the question's row with its notification, the claim that notifies the owner,
 * the resolution with its notification), each host listening, on a table and channel of their own. Its CPU (Postgres's
 * and this process's) added to one SQLite host's is what 3 hosts would cost if they added nothing else.
 */
const CHANNEL = "parley_floor";
const HOSTS = 3;

/** A realistic frame: a question as the hosts notify it. */
const frameOf = (rpcId: string, type: string) =>
  JSON.stringify({
    s: `host-${rpcId}`,
    f: { type, rpcId, sessionId: "8a1f1a2e-7d3c-4d2b-9f57-3c1f0e9b2a11", questions: [{ id: "pkg", question: "Which package manager?", options: [{ label: "pnpm" }, { label: "npm" }] }], createdAt: Date.now() },
  });

/** A host's connections: a pool of 10 for its statements, as a host's store has, and one that listens. */
class FloorHost {
  private readonly heard = new Set<string>();
  private readonly waiters = new Map<string, () => void>();
  private constructor(
    readonly writer: pg.Pool,
    private readonly listener: pg.Client,
  ) {
    listener.on("notification", (message) => {
      const note = JSON.parse(message.payload ?? "{}") as { f?: { type: string; rpcId: string }; rpc?: string };
      const key = note.f ? `${note.f.type} ${note.f.rpcId}` : `answer ${note.rpc}`;
      const waiter = this.waiters.get(key);
      if (!waiter) return void this.heard.add(key);
      this.waiters.delete(key);
      waiter();
    });
  }
  static async open(url: string): Promise<FloorHost> {
    const writer = new pg.Pool({ connectionString: url, max: 10 });
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    await listener.query(`LISTEN ${CHANNEL}`);
    return new FloorHost(writer, listener);
  }
  until(key: string): Promise<void> {
    if (this.heard.delete(key)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.set(key, resolve));
  }
  close() {
    return Promise.all([this.writer.end(), this.listener.end()]);
  }
}

async function answerOne(hosts: FloorHost[], index: number): Promise<void> {
  const asker = hosts[index % HOSTS]!;
  const responder = hosts[(index + 1) % HOSTS]!;
  const rpcId = `floor-${index}-${randomUUID()}`;
  const requested = frameOf(rpcId, "question/requested");
  await asker.writer.query(`WITH written AS (INSERT INTO floor_pending (rpc_id, owner, frame) VALUES ($1, $2, $3)) SELECT pg_notify($4, $3)`, [rpcId, index % HOSTS, requested, CHANNEL]);
  await responder.until(`question/requested ${rpcId}`);
  const answer = JSON.stringify({ type: "answer", rpcId, answers: [{ id: "pkg", selected: ["pnpm"] }] });
  await responder.writer.query(
    `WITH claimed AS (UPDATE floor_pending SET state = 'answered', response = $2 WHERE rpc_id = $1 AND state = 'pending' RETURNING owner)
     SELECT owner, pg_notify($3, json_build_object('rpc', $1::text, 'to', owner, 'answer', $2::json)::text) FROM claimed`,
    [rpcId, answer, CHANNEL],
  );
  await asker.until(`answer ${rpcId}`);
  await asker.writer.query(`WITH written AS (UPDATE floor_pending SET state = 'answered' WHERE rpc_id = $1 AND state = 'pending') SELECT pg_notify($2, $3)`, [rpcId, CHANNEL, frameOf(rpcId, "question/resolved")]);
  await asker.until(`question/resolved ${rpcId}`);
}

/** Runs `count` answered questions through bare clients, `concurrency` at a time; `cpu` reads the CPU seconds to charge. */
export async function floorCpuPerAnswer(url: string, count: number, concurrency: number, cpu: () => number): Promise<number> {
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  await setup.query("CREATE TABLE IF NOT EXISTS floor_pending (rpc_id TEXT PRIMARY KEY, owner INTEGER NOT NULL, frame TEXT NOT NULL, state TEXT NOT NULL DEFAULT 'pending', response TEXT)");
  await setup.end();
  const hosts = await Promise.all(Array.from({ length: HOSTS }, () => FloorHost.open(url)));
  /** Answers `total` questions, `concurrency` at a time. */
  const drive = async (total: number) => {
    let next = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < total) await answerOne(hosts, next++);
    }));
  };
  try {
    await drive(200);
    const before = cpu();
    await drive(count);
    return (cpu() - before) / count;
  } finally {
    await Promise.all(hosts.map((host) => host.close()));
  }
}
