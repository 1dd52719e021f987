import { describe, expect, it } from "vitest";
import type { Session } from "../../protocol/schemas";
import { dayGroup, groupSessions } from "./groups";

const NOW = new Date(2026, 10, 30, 15, 0);

function at(days: number, hours: number): string {
  return new Date(2026, 10, 30 - days, hours, 30).toISOString();
}

function session(id: string, updatedAt: string): Session {
  return { id, title: id, createdAt: updatedAt, updatedAt, state: "idle" };
}

describe("dayGroup", () => {
  it("reads the viewer's local day: today from midnight, yesterday the day before, else earlier", () => {
    expect(dayGroup(at(0, 0), NOW)).toBe("today");
    expect(dayGroup(at(1, 23), NOW)).toBe("yesterday");
    expect(dayGroup(at(1, 0), NOW)).toBe("yesterday");
    expect(dayGroup(at(2, 23), NOW)).toBe("earlier");
  });

  it("lists a moment it cannot read, or one in the future, under today", () => {
    expect(dayGroup("not a date", NOW)).toBe("today");
    expect(dayGroup(new Date(2027, 0, 1).toISOString(), NOW)).toBe("today");
  });
});

describe("groupSessions", () => {
  it("pins waiting chats on top, then Today, Yesterday and Earlier, each in list order, leaving out empty groups", () => {
    const sessions = [session("a", at(0, 14)), session("b", at(0, 9)), session("c", at(1, 12)), session("d", at(5, 8)), session("e", at(6, 8))];
    const groups = groupSessions(sessions, new Set(["d", "b"]), NOW);
    expect(groups.map((group) => [group.key, group.sessions.map((item) => item.id)])).toEqual([
      ["waiting", ["b", "d"]],
      ["today", ["a"]],
      ["yesterday", ["c"]],
      ["earlier", ["e"]],
    ]);
  });

  it("has no groups for no chats", () => {
    expect(groupSessions([], new Set(), NOW)).toEqual([]);
  });
});
