import type { z } from "zod";

type Issue = z.core.$ZodIssue;

function describeIssue(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type":
      return `expected ${issue.expected}`;
    case "unrecognized_keys":
      return `unknown field ${issue.keys.map((key) => JSON.stringify(key)).join(", ")}`;
    case "invalid_format":
      return issue.format === "url" ? "expected an http or https URL" : `expected ${issue.format}`;
    case "too_small":
      return "must not be empty";
    case "too_big":
      return `must be at most ${String(issue.maximum)} characters`;
    case "invalid_value":
      return `expected ${issue.values.map((value) => JSON.stringify(value)).join(" or ")}`;
    default:
      return issue.message;
  }
}

/** A config file's wrong field as its message names it: `path.to.field: what is wrong` (the problem alone at the top). */
export function describeConfigIssue(prefix: readonly PropertyKey[], issue: Issue): string {
  const field = [...prefix, ...issue.path].map(String).join(".");
  return field === "" ? describeIssue(issue) : `${field}: ${describeIssue(issue)}`;
}
