import { expect, it } from "vitest";
import type { DownFrame } from "../../protocol/schemas";
import { createFrameBus, type Hold } from "./frame-bus";

const frame = (sessionId: string): DownFrame => ({ type: "session/deleted", sessionId });

it("runs a burst inside every subscriber's hold, each frame reaching every listener, and just runs it once no hold is left", () => {
  const bus = createFrameBus();
  const events: string[] = [];
  const holding =
    (name: string): Hold =>
    (work) => {
      events.push(`${name} holds`);
      work();
      events.push(`${name} lets go`);
    };
  const stopA = bus.subscribe((sent) => events.push(`a got ${sent.type === "session/deleted" ? sent.sessionId : sent.type}`), holding("a"));
  bus.subscribe((sent) => events.push(`b got ${sent.type === "session/deleted" ? sent.sessionId : sent.type}`));
  const stopC = bus.subscribe(() => undefined, holding("c"));
  bus.burst(() => {
    bus.publish(frame("one"));
    bus.publish(frame("two"));
  });
  expect(events).toEqual(["c holds", "a holds", "a got one", "b got one", "a got two", "b got two", "a lets go", "c lets go"]);
  events.length = 0;
  stopA();
  stopC();
  bus.burst(() => bus.publish(frame("three")));
  expect(events).toEqual(["b got three"]);
});
