import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DownFrame, type Message, type QuestionItem } from "../protocol/schemas";
import { applyFrame, applyTranscript } from "./apply-frame";
import { initialSessionData, type SessionData } from "./state";

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);

const id = fc.oneof(fc.constantFrom("s1", "s2", "m1", "m2", "r1", "r2", "__proto__", "constructor", "toString", ""), fc.string({ maxLength: 4 }));
const hostId = fc.constantFrom("host-a", "host-b");
const text = fc.string({ maxLength: 12 });
const iso = fc.constantFrom("2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z", "");
const question: fc.Arbitrary<QuestionItem> = fc.record({ id: fc.constantFrom("q1", "q2"), question: fc.constantFrom("Which?", "<script>alert(1)</script>") });
const questions = fc.uniqueArray(question, { minLength: 1, maxLength: 2, selector: (item) => item.id });
const message: fc.Arbitrary<Message> = fc.record(
  { id, sessionId: id, role: fc.constantFrom("user", "assistant", "tool"), createdAt: iso, text },
  { requiredKeys: ["id", "sessionId", "role", "createdAt"] },
);

const frame: fc.Arbitrary<DownFrame> = fc.oneof(
  hostId.map((host) => ({ type: "hello" as const, protocol: 2 as const, hostId: host })),
  fc.record({ type: fc.constant("question/requested" as const), rpcId: id, sessionId: id, questions, createdAt: iso }),
  fc.record({ type: fc.constant("question/resolved" as const), rpcId: id, sessionId: id, outcome: fc.constantFrom("answered" as const, "cancelled" as const, "aborted" as const) }),
  fc.constant({ type: "synced" as const }),
  fc.record({ type: fc.constant("session/upserted" as const), session: fc.record({ id, title: text, createdAt: iso, updatedAt: iso, state: fc.constantFrom("idle" as const, "running" as const, "waiting" as const) }) }),
  fc.record({ type: fc.constant("session/deleted" as const), sessionId: id }),
  fc.record({ type: fc.constant("message/upserted" as const), message }),
  fc.record({ type: fc.constant("message/delta" as const), sessionId: id, messageId: id, text }),
);

interface ModelEntry {
  sessionId: string;
  rpcId: string;
  confirmed: boolean;
}

/** What docs/protocol.md says the browser holds after each frame, kept as a flat list in arrival order. */
function modelStep(model: { hostId: string | null; held: ModelEntry[] }, next: DownFrame) {
  switch (next.type) {
    case "hello":
      if (model.hostId !== null && model.hostId !== next.hostId) model.held = [];
      else model.held = model.held.map((entry) => ({ ...entry, confirmed: false }));
      model.hostId = next.hostId;
      return;
    case "question/requested": {
      const found = model.held.find((entry) => entry.sessionId === next.sessionId && entry.rpcId === next.rpcId);
      if (found) found.confirmed = true;
      else model.held.push({ sessionId: next.sessionId, rpcId: next.rpcId, confirmed: true });
      return;
    }
    case "synced":
      model.held = model.held.filter((entry) => entry.confirmed);
      return;
    case "question/resolved":
      model.held = model.held.filter((entry) => entry.rpcId !== next.rpcId);
      return;
    case "session/deleted":
      model.held = model.held.filter((entry) => entry.sessionId !== next.sessionId);
      return;
    default:
      return;
  }
}

function heldOf(state: SessionData): ModelEntry[] {
  return Object.entries(state.pending).flatMap(([sessionId, entries]) => entries.map((entry) => ({ sessionId, rpcId: entry.request.rpcId, confirmed: entry.confirmed })));
}

const byKey = (entries: ModelEntry[]) => [...entries].sort((a, b) => (a.sessionId + "\u0000" + a.rpcId < b.sessionId + "\u0000" + b.rpcId ? -1 : 1));

describe("applyFrame with ids that name Object.prototype members", () => {
  it("holds a request and a transcript whose session id is __proto__ or constructor across hello and synced", () => {
    const request = { rpcId: "r1", sessionId: "__proto__", questions: [{ id: "q1", question: "Which?" }], createdAt: "2026-01-01T00:00:00.000Z" };
    const message: Message = { id: "m1", sessionId: "constructor", role: "user", createdAt: "2026-01-01T00:00:00.000Z", text: "hi" };
    let state: SessionData = initialSessionData;
    for (const next of [
      { type: "hello", protocol: 2, hostId: "host-a" },
      { type: "question/requested", ...request },
      { type: "message/upserted", message },
      { type: "message/delta", sessionId: "constructor", messageId: "m1", text: "!" },
      { type: "hello", protocol: 2, hostId: "host-a" },
      { type: "question/requested", ...request },
      { type: "synced" },
    ] satisfies DownFrame[]) {
      state = applyFrame(state, next);
    }
    expect(Object.entries(state.pending)).toEqual([["__proto__", [{ request, confirmed: true }]]]);
    expect(Object.entries(state.transcripts)).toEqual([["constructor", [{ ...message, text: "hi!" }]]]);
  });
});

describe("applyFrame under arbitrary frame sequences", () => {
  it("holds exactly the pending requests the protocol says, with no duplicate request, message or session", () => {
    fc.assert(
      fc.property(fc.array(frame, { maxLength: 40 }), (frames) => {
        let state: SessionData = initialSessionData;
        const model = { hostId: null as string | null, held: [] as ModelEntry[] };
        for (const next of frames) {
          state = applyFrame(state, next);
          modelStep(model, next);
          expect(byKey(heldOf(state))).toEqual(byKey(model.held));
          for (const entries of Object.values(state.pending)) expect(entries.length).toBeGreaterThan(0);
          for (const messages of Object.values(state.transcripts)) expect(new Set(messages.map((item) => item.id)).size).toBe(messages.length);
          expect(new Set(state.sessions.map((session) => session.id)).size).toBe(state.sessions.length);
        }
      }),
      { numRuns: RUNS * 5 },
    );
  });

  it("returns the same state object for a frame that changes nothing", () => {
    fc.assert(
      fc.property(fc.array(frame, { maxLength: 20 }), id, (frames, rpcId) => {
        let state: SessionData = initialSessionData;
        for (const next of frames) state = applyFrame(state, next);
        fc.pre(!heldOf(state).some((entry) => entry.rpcId === rpcId));
        expect(applyFrame(state, { type: "question/resolved", rpcId, sessionId: "s1", outcome: "answered" })).toBe(state);
      }),
      { numRuns: RUNS },
    );
  });

  it("applies every arbitrary JSON value the frame schema accepts without throwing", () => {
    const mutated = fc.tuple(frame, fc.constantFrom("type", "rpcId", "sessionId", "questions", "session", "message", "text", "hostId", "protocol"), fc.jsonValue()).map(([base, key, value]) => ({ ...base, [key]: value }));
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.jsonValue(), mutated, frame), { maxLength: 30 }), (values) => {
        let state: SessionData = initialSessionData;
        for (const value of values) {
          const parsed = DownFrame.safeParse(value);
          if (parsed.success) state = applyFrame(state, parsed.data);
        }
        expect(Object.values(state.pending).every((entries) => Array.isArray(entries) && entries.length > 0)).toBe(true);
      }),
      { numRuns: RUNS * 2 },
    );
  });
});

describe("transcripts under arbitrary frames, applied to the newest state or to any earlier one", () => {
  /** What a transcript becomes, by a scan of its rows: the last row with the id is replaced, else one is appended. */
  type RowFrame = Extract<DownFrame, { type: "message/upserted" | "message/delta" }>;
  function modelTranscript(messages: readonly Message[], next: RowFrame): readonly Message[] {
    const rowId = next.type === "message/upserted" ? next.message.id : next.messageId;
    let index = -1;
    for (let at = messages.length - 1; at >= 0 && index < 0; at--) if (messages[at]!.id === rowId) index = at;
    const current = index < 0 ? undefined : messages[index]!;
    const made: Message =
      next.type === "message/upserted"
        ? next.message
        : current
          ? { ...current, text: (current.text ?? "") + next.text }
          : { id: next.messageId, sessionId: next.sessionId, role: "assistant", createdAt: "", text: next.text };
    return index < 0 ? [...messages, made] : messages.map((message, at) => (at === index ? made : message));
  }

  const rowId = fc.constantFrom("m1", "m2", "m3", "__proto__", "");
  const step = fc.oneof(
    fc.record({ kind: fc.constant("frame" as const), message: fc.record({ id: rowId, sessionId: fc.constant("s1"), role: fc.constantFrom("user" as const, "assistant" as const), createdAt: iso, text }) }),
    fc.record({ kind: fc.constant("delta" as const), messageId: rowId, text }),
    fc.record({ kind: fc.constant("fetched" as const), ids: fc.array(rowId, { maxLength: 3 }) }),
  );

  it("finds the row a scan finds, whichever state a frame is applied to", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(step, fc.nat()), { maxLength: 40 }), (steps) => {
        const states: SessionData[] = [initialSessionData];
        for (const [next, pick] of steps) {
          // Most frames go to the newest state, as in the app; the others to an earlier one, whose rows must still be found.
          const base = states[pick % 3 === 0 ? pick % states.length : states.length - 1]!;
          const before = base.transcripts["s1"] ?? [];
          if (next.kind === "fetched") {
            const fetched = next.ids.map((id, at): Message => ({ id, sessionId: "s1", role: "assistant", createdAt: "2026-01-01T00:00:00.000Z", text: `fetched ${at}` }));
            states.push(applyTranscript(base, "s1", fetched));
            continue;
          }
          const frameNow: RowFrame = next.kind === "frame" ? { type: "message/upserted", message: next.message } : { type: "message/delta", sessionId: "s1", messageId: next.messageId, text: next.text };
          const after = applyFrame(base, frameNow);
          expect(after.transcripts["s1"]).toEqual(modelTranscript(before, frameNow));
          expect(base.transcripts["s1"] ?? []).toEqual(before);
          states.push(after);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
