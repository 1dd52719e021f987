/** Model- or agent-written arguments: JSON, nested at most MAX_ARGUMENT_DEPTH levels, checked before parsing so no depth can overflow the stack. */
export const MAX_ARGUMENT_DEPTH = 64;

/** Parses tool arguments as JSON after checking their depth; the problem in a sentence when they are not usable. */
export function parseArguments(raw: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < raw.length; index++) {
    const char = raw[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{" || char === "[") {
      if (++depth > MAX_ARGUMENT_DEPTH) return { ok: false, problem: `arguments are nested deeper than ${MAX_ARGUMENT_DEPTH} levels` };
    } else if (char === "}" || char === "]") depth--;
  }
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (error) {
    return { ok: false, problem: `arguments are not valid JSON: ${(error as Error).message}` };
  }
}
