/** A command the composer's `/` menu offers: typed as `name` followed by its arguments. */
export interface ComposerCommand {
  /** As typed, with its slash: `/ask`. */
  name: string;
  /** What follows the name, as a hint: `<json>`. */
  usage: string;
  /** One line on what it does, in the UI language (or as its agent wrote it). */
  description: string;
}

/** The commands whose name starts with what is typed, while the text is a slash and a command name with nothing after it; else none. */
export function matchCommands(text: string, commands: readonly ComposerCommand[]): ComposerCommand[] {
  if (!/^\/\S*$/.test(text)) return [];
  const typed = text.toLowerCase();
  return commands.filter((command) => command.name.toLowerCase().startsWith(typed));
}

/** The text after choosing a command: its name and a space, ready for its arguments. */
export function completeCommand(command: ComposerCommand): string {
  return `${command.name} `;
}

/** The built-in and extra commands as one list, the first of a name winning. */
export function mergeCommands(...lists: readonly (readonly ComposerCommand[])[]): ComposerCommand[] {
  const seen = new Set<string>();
  return lists.flat().filter((command) => {
    if (seen.has(command.name)) return false;
    seen.add(command.name);
    return true;
  });
}
